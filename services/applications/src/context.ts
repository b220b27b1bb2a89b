import type { MikroORM } from '@mikro-orm/postgresql';
import type { Cidr, SecretBox } from '@switchboard/security';
import type { JetStreamClient } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import type { SessionRegistry } from '@switchboard/contracts';
import type { RevokedCredentials } from './api-keys/announce.ts';
import type { LoginLockout } from './accounts/login-lockout.ts';
import type { LaunchRefusals } from './sessions/launch-refusals.ts';

export interface TenantLimits {
  /** Session tokens one application may hold. */
  tokensPerApplication: number;
  /** Sessions one account may launch per second (0: no limit), and in a burst. */
  launchesPerSecond: number;
  launchBurst: number;
}

/** What the use cases need, built once by the composition root (app.ts) or the account command. */
export interface Deps {
  orm: MikroORM;
  /** DELIVERY_ALLOWED_CIDRS. */
  allowedCidrs: readonly Cidr[];
  /** SIP_DOMAIN: the host of the SIP addresses handed out. */
  sipDomain: string;
  /** The outbox relay: kicked after a commit that wrote events, so they go out without waiting for its timer. */
  outbox: { kick(): void };
  /** SECRETS_KEY: seals and opens the applications' session secrets. */
  secrets: SecretBox;
  /** Sessions started or routed in the last 24 h (the Session API's signals). */
  sessions: SessionRegistry;
  /** JetStream, for what is published without the outbox (launched sessions, signals). */
  js: JetStreamClient;
  /** Per-tenant limits (APPLICATION_TOKENS_MAX, SESSION_LAUNCH_*_PER_ACCOUNT). */
  limits: TenantLimits;
  /** Reports launches refused by the launch budget (the launch.refused alert), at most once per account and minute. */
  launchRefusals: LaunchRefusals;
  /** For what a use case notes without failing the request. */
  logger: Logger;
  /** Keys derived from SECRETS_KEY for the keyed hashes of API keys and browser session tokens. */
  credentialKeys: { apiKeys: Buffer; sessions: Buffer };
  /** Tells the gateways (core NATS, best effort) that credentials of an account are no longer valid. */
  announceRevoked(body: RevokedCredentials): void;
  /** Lifetimes of browser sessions (CONSOLE_SESSION_TTL_MS, CONSOLE_SESSION_IDLE_MS) and the clock they are measured by. */
  consoleSessions: { absoluteMs: number; idleMs: number; now: () => Date };
  /** The lockout of a username after failed logins, for every gateway (AUTH_MAX_FAILURES, AUTH_LOCKOUT_MS). */
  loginLockout: LoginLockout;
}
