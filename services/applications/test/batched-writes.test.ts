// Creates that reach the applications service together (one gRPC batch) are stored by one
// statement and one commit; a create that fails fails alone.
import { describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { AppError } from '@switchboard/errors';
import { applicationsClient, callBatcher } from '@switchboard/proto';
import { queryDatabase, useServices, type Services } from '../../../test/support';

let stack: Services<Record<string, never>>;

useServices({}, (s) => (stack = s));

describe('creates that arrive together', () => {
  it('when 40 creates come in batches and one names an account that does not exist, then that one fails and the other 39 are stored with their secrets and events', async () => {
    const accountId = await stack.newAccount();
    const address = `127.0.0.1:${stack.applications.grpcPort}`;
    // One call or batch out at a time: the other calls wait and leave together.
    const batch = callBatcher(address, { target: 'applications', maxInFlight: 1 });
    const client = applicationsClient(address, { batch });
    try {
      // A first create alone: the service has read its environments (cached a minute) before the batch arrives.
      await client.createApplication({ accountId, name: 'first', voiceUrl: 'https://example.com/voice' });
      const creates = Array.from({ length: 40 }, (_, i) => ({
        accountId: i === 17 ? '987654321987' : accountId,
        name: `together ${i}`,
        voiceUrl: `https://example.com/voice/${i}`,
      }));
      const answers = await Promise.allSettled(creates.map((c) => client.createApplication(c)));
      const stored = answers.flatMap((a, i) => (a.status === 'fulfilled' ? [{ i, app: a.value.application! }] : []));
      expect(answers[17]!.status).toBe('rejected');
      expect((answers[17] as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
      expect(stored.map((s) => s.i)).toEqual(creates.map((_, i) => i).filter((i) => i !== 17));
      for (const { i, app } of stored)
        expect(app).toMatchObject({ name: `together ${i}`, voiceUrl: `https://example.com/voice/${i}`, accountId });

      const rows = await queryDatabase<{ id: string; seq: string; secret: string | null }>(
        stack.databaseUrl,
        `select a.id, a.seq::text, s.secret from applications.applications a left join applications.application_secrets s on s.application_id = a.id where a.account_id = $1`,
        [accountId],
      );
      expect(rows).toHaveLength(40);
      expect(new Set(rows.map((r) => r.seq)).size).toBe(40);
      expect(rows.every((r) => r.secret?.startsWith('enc:v1:'))).toBe(true);
      // Each answer carries the seq it was stored with (lists page by it).
      const page = await stack.applications.client.listApplications({ accountId, limit: 100 });
      expect(
        page.applications
          .filter((a) => a.name !== 'first')
          .map((a) => a.id)
          .sort(),
      ).toEqual(stored.map((s) => s.app.id).sort());
      // Every stored create's applications.changed event reached JetStream through the outbox.
      const nc = await connect({ servers: stack.nats.url });
      try {
        const consumer = await jetstream(nc).consumers.get('SWITCHBOARD_INTERNAL', {
          deliver_policy: DeliverPolicy.All,
          filter_subjects: 'applications.changed',
        });
        const seen = new Set<string>();
        for (let m = await consumer.next({ expires: 2000 }); m; m = await consumer.next({ expires: 2000 })) {
          seen.add((m.json() as { applicationId: string }).applicationId);
          if (stored.every((s) => seen.has(s.app.id))) break;
        }
        expect(stored.filter((s) => !seen.has(s.app.id))).toEqual([]);
      } finally {
        await nc.close();
      }
    } finally {
      client.close();
      batch.close();
    }
  });
});
