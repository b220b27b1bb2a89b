// The outbox's JetStream message ids are UUIDv7s stored with each row: events of a database that
// was recreated while NATS kept running are not taken for duplicates of the old database's events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { DeliverPolicy, jetstream } from '@nats-io/jetstream';
import { createLogger } from '@switchboard/observability';
import {
  createTestDatabase,
  queryDatabase,
  startNatsServer,
  startServices,
  waitFor,
  type NatsServer,
} from '../../../test/support';
import { initOrm, migrate } from '@switchboard/db';
import { SCHEMA } from '../src/db/schema';
import { uuidv7 } from '../src/outbox/outbox';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let nats: NatsServer;

beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => nats?.destroy());

/** Every applications.changed event on the internal stream, with its JetStream message id. */
async function changedEvents(): Promise<{ applicationId: string; msgId: string | undefined }[]> {
  const nc = await connect({ servers: nats.url });
  try {
    const consumer = await jetstream(nc).consumers.get('SWITCHBOARD_INTERNAL', { deliver_policy: DeliverPolicy.All });
    const out: { applicationId: string; msgId: string | undefined }[] = [];
    for (;;) {
      const m = await consumer.next({ expires: 1000 });
      if (!m) return out;
      if (m.subject === 'applications.changed')
        out.push({
          applicationId: (m.json() as { applicationId: string }).applicationId,
          msgId: m.headers?.get('Nats-Msg-Id'),
        });
    }
  } finally {
    await nc.close();
  }
}

describe('outbox message ids', () => {
  it('when a new database is started against the same NATS stream, then its events are delivered too (not dropped as duplicates)', async () => {
    const created: string[] = [];
    for (let round = 0; round < 2; round++) {
      // A fresh database each round: outbox row ids start at 1 again, inside JetStream's duplicate window.
      const stack = await startServices({ gateway: true, nats });
      try {
        const account = await stack.createAccount('outbox');
        const res = await stack.request(account, 'POST', '/v1/applications', {
          name: `round ${round}`,
          voiceUrl: 'https://example.com/voice',
        });
        expect(res.status).toBe(200);
        const id = String(((await res.json()) as { href: string }).href)
          .split('/')
          .pop()!;
        created.push(id);
        await waitFor(async () => (await changedEvents()).some((e) => e.applicationId === id), {
          timeoutMs: 10_000,
          what: `applications.changed of round ${round}`,
        });
      } finally {
        await stack.stop();
      }
    }
    const events = (await changedEvents()).filter((e) => created.includes(e.applicationId));
    expect(events.map((e) => e.applicationId)).toEqual(created);
    for (const e of events) expect(e.msgId).toMatch(UUID_V7);
    expect(new Set(events.map((e) => e.msgId)).size).toBe(2);
  }, 60_000);

  it('when the migration adds the column, then rows already in the outbox get distinct UUIDv7s made from their creation time', async () => {
    const db = await createTestDatabase();
    const logger = createLogger('test', 'silent');
    const orm = await initOrm({ ...SCHEMA, databaseUrl: db.url, schema: 'applications', poolMax: 2, logger });
    try {
      await orm.em.getConnection().execute('create schema if not exists "applications"');
      await orm.migrator.up({ to: 'Migration001Initial' });
      await queryDatabase(
        db.url,
        `insert into applications.outbox (subject, payload, created_at) values
          ('applications.changed', '{"n":1}', '2026-01-02T03:04:05.678Z'), ('applications.changed', '{"n":2}', '2026-01-02T03:04:05.678Z'),
          ('applications.deleted', '{"n":3}', '2026-05-06T07:08:09.010Z')`,
      );
      await migrate(orm, 'applications', logger);
      const rows = await queryDatabase<{ message_id: string; created_at: Date }>(
        db.url,
        'select message_id, created_at from applications.outbox order by id',
      );
      expect(rows).toHaveLength(3);
      for (const r of rows) {
        expect(r.message_id).toMatch(UUID_V7);
        expect(parseInt(r.message_id.replace(/-/g, '').slice(0, 12), 16)).toBe(new Date(r.created_at).getTime());
      }
      expect(new Set(rows.map((r) => r.message_id)).size).toBe(3);
      // Rows written without one (not through enqueueEvent) get one from the column default.
      await queryDatabase(
        db.url,
        `insert into applications.outbox (subject, payload) values ('applications.changed', '{}')`,
      );
      const [late] = await queryDatabase<{ message_id: string }>(
        db.url,
        'select message_id from applications.outbox order by id desc limit 1',
      );
      expect(late!.message_id).toMatch(UUID_V7);
    } finally {
      await orm.close(true);
      await db.drop();
    }
  }, 60_000);

  it('uuidv7 puts the time first and sets version and variant', () => {
    const id = uuidv7(0x0123456789ab);
    expect(id).toMatch(UUID_V7);
    expect(id.startsWith('01234567-89ab-7')).toBe(true);
    expect(uuidv7() < uuidv7(Date.now() + 10)).toBe(true);
  });
});
