import type { MikroORM } from '@mikro-orm/postgresql';
import type { AlertCode } from '@switchboard/events';
import type { Cidr, SecretBox } from '@switchboard/security';
import type { ApplicationDirectory } from './applications/directory.ts';
import type { Sweeper } from './deliveries/sweep-deliveries.ts';
import type { ChangePublisher } from './events/changes.ts';
import type { DispatcherLink } from './tools/dispatcher-link.ts';
import type { ToolLimits } from './tools/account-tool-budget.ts';

/** What the use cases need from the composition root. */
export interface Deps {
  orm: MikroORM;
  /** The Postgres schema of this service (for the few raw SQL statements). */
  schema: string;
  /** How long a day of retention lasts (RETENTION_DAY_MS): each partition of records, sessions and alerts spans one. */
  dayMs: number;
  applications: ApplicationDirectory;
  changes: ChangePublisher;
  /** Deletes queued delivery records in the background; kicked after a deletion commits. */
  sweeper: Pick<Sweeper, 'kick'>;
  /** DELIVERY_ALLOWED_CIDRS. */
  allowedCidrs: readonly Cidr[];
  /** SECRETS_KEY: signing secrets are sealed with it at rest. */
  secrets: SecretBox;
  /** Test sends and resend jobs to the dispatchers (NATS). */
  dispatchers: DispatcherLink;
  /** Test sends per subscription per minute (TEST_SENDS_PER_MINUTE). */
  testsPerMinute: number;
  /** Limits of the delivery tools: one recovery's size, and resends and recoveries per account per hour. */
  toolLimits: ToolLimits;
  /** DELIVERY_DISABLE_AFTER in ms; 0: subscriptions are not disabled for failing. */
  disableAfterMs: number;
  /** PUBLIC_BASE_URL: hrefs in the events this service publishes. */
  publicBaseUrl: string;
  /** The outbox relay: kicked after a commit that wrote events. */
  outbox: { kick(): void };
  /** Counts alerts raised, by code, once their transaction committed (webhooks_alerts_total). */
  alertsRaised(code: AlertCode, n?: number): void;
}

/** The request id travels with a use case's request, for the logs of what it calls and publishes. */
export type Traced<T> = T & { requestId?: string };
