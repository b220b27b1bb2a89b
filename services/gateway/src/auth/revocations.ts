// Follows the notices that credentials are no longer valid (core NATS): an API key revoked, a
// password changed or an account deleted (credentials.revoked, from the applications service or
// the account command) and an account deleted (accounts.deleted, from the outbox). Each gateway forgets what it remembers of them at once. The
// connection is made in the background: until it is up (and after it drops), no verified key is
// remembered, so a missed notice never lets a revoked key through.
import { connectNats, followChanges, type NatsHandle } from '@switchboard/messaging';
import { SUBJECTS } from '@switchboard/events';
import type { Logger } from '@switchboard/observability';
import type { Authenticator } from '../auth.ts';
import type { ApiKeyVerifier } from './api-keys.ts';

export interface RevocationFollower {
  stop(): Promise<void>;
}

export function followRevocations(
  nats: { url: string; user?: string | undefined; password?: string | undefined },
  keys: ApiKeyVerifier,
  passwords: Authenticator,
  logger: Logger,
): RevocationFollower {
  let handle: NatsHandle | undefined;
  let stopped = false;
  const onEvent = (subject: string, body: Record<string, unknown>) => {
    const accountId = String(body.accountId ?? '');
    if (!accountId) return;
    if (subject === SUBJECTS.accountDeleted) return keys.forget(accountId);
    const keyIds = Array.isArray(body.keyIds) ? body.keyIds.map(String) : undefined;
    if (body.allKeys === true) keys.forget(accountId);
    else if (keyIds) keys.forget(accountId, keyIds);
    if (typeof body.username === 'string') passwords.forget(body.username);
  };
  const started = (async () => {
    const h = await connectNats(nats.url, logger, 'gateway', { user: nats.user, password: nats.password });
    handle = h;
    if (stopped) return h.close();
    // A notice that cannot be read, or a reconnect (notices may have been missed): forget every key;
    // while the connection is down, remember none.
    const unfollow = followChanges(
      h.nc,
      [SUBJECTS.credentialsRevoked, SUBJECTS.accountDeleted],
      onEvent,
      () => keys.setFollowing(true),
      () => keys.setFollowing(false),
    );
    // The subscriptions are registered with the server once flushed: only then are notices heard.
    await h.nc.flush();
    keys.setFollowing(true);
    await h.nc.closed();
    unfollow();
  })().catch((err: unknown) => {
    keys.setFollowing(false);
    if (!stopped)
      logger.warn(
        { err: (err as Error).message },
        'following credential revocations failed; API keys are verified on every request',
      );
  });
  return {
    async stop() {
      stopped = true;
      keys.setFollowing(false);
      // Still connecting (NATS unreachable): nothing to wait for; a late connection closes itself.
      if (!handle) return;
      await handle.close();
      await started;
    },
  };
}
