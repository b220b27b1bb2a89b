// The revocation follower against a real NATS server that goes away and comes back: keys are
// remembered only while notices can arrive, and a notice reaches the verifiers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, type NatsHandle } from '@switchboard/messaging';
import { SUBJECTS } from '@switchboard/events';
import { createLogger } from '@switchboard/observability';
import { startNatsServer, waitFor, type NatsServer } from '../../../../test/support';
import type { Authenticator } from '../auth';
import type { ApiKeyVerifier } from './api-keys';
import { followRevocations, type RevocationFollower } from './revocations';

let nats: NatsServer;
let follower: RevocationFollower;
let following: boolean | undefined;
const forgotten: string[] = [];
const keys = {
  setFollowing: (f: boolean) => void (following = f),
  forget: (accountId: string) => void forgotten.push(accountId),
} as unknown as ApiKeyVerifier;
const passwords = { forget: () => undefined } as unknown as Authenticator;
const logger = createLogger('revocations-test', 'silent');

beforeAll(async () => {
  nats = await startNatsServer();
  follower = followRevocations({ url: nats.url }, keys, passwords, logger);
});

afterAll(async () => {
  await follower?.stop();
  await nats?.destroy();
});

describe('followRevocations', () => {
  it('when NATS goes away and comes back, then keys are remembered only while notices can arrive, and a notice after the reconnect is heard', async () => {
    await waitFor(() => following === true, { what: 'following at start' });
    await nats.stop();
    await waitFor(() => following === false, { what: 'not following while NATS is down', timeoutMs: 15_000 });
    await nats.start();
    await waitFor(() => following === true, { what: 'following after the reconnect', timeoutMs: 30_000 });

    let bus: NatsHandle | undefined;
    try {
      bus = await connectNats(nats.url, logger, 'revocations-test');
      bus.nc.publish(SUBJECTS.credentialsRevoked, JSON.stringify({ accountId: '42', allKeys: true }));
      await waitFor(() => forgotten.includes('42'), { what: 'the notice heard' });
    } finally {
      await bus?.close();
    }
    expect(following).toBe(true);
  });
});
