// Test fixture of the webhooks service: the real applications and webhooks services in-process
// (test/support startServices) on a fresh database and a private NATS server, loopback targets allowed;
// and, for the tests of its schema alone, a fresh database with the service's ORM (useWebhooksDatabase).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { AckPolicy, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import type { MikroORM } from '@mikro-orm/postgresql';
import { initOrm, migrate } from '@switchboard/db';
import type { NatsHandle } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { SecretBox } from '@switchboard/security';
import { DELIVERIES_STREAM, RECORDS_CONSUMER, RECORDS_SUBJECT, type DisableRequest } from '@switchboard/contracts';
import {
  createTestDatabase,
  startServices,
  useFixture,
  waitFor,
  type Services,
  type TestDatabase,
} from '../../../test/support';
import { ENTITIES } from '../src/db/entities';
import { MIGRATIONS } from '../src/db/migrations';

export type { RunningWebhooks } from '../../../test/support';
export type Harness = Services<{ webhooks: true }>;

export function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  return startServices({ webhooks: true, env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128', ...env } });
}

/** A harness (startHarness) for the tests of the file, stopped after them; `onReady` receives it (e.g. `useHarness((s) => (h = s))`). */
export function useHarness(onReady: (h: Harness) => void): void {
  useFixture(
    () => startHarness(),
    (h) => h.stop(),
    onReady,
  );
}

/**
 * A fresh database for the tests of a file or describe block, dropped after them. `open` opens the
 * webhooks service's ORM on it (one SecretBox for all) and migrates it through `migrations` (all by
 * default); what it opened is closed after the tests. Read `url` inside the tests.
 */
export function useWebhooksDatabase(): {
  readonly url: string;
  open(migrations?: typeof MIGRATIONS): Promise<MikroORM>;
} {
  const logger = createLogger('test', 'silent');
  const secrets = SecretBox.fromText(randomBytes(32).toString('base64'));
  const opened: MikroORM[] = [];
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const orm of opened) if (await orm.isConnected()) await orm.close(true);
    await db?.drop();
  });
  return {
    get url() {
      return db!.url;
    },
    async open(migrations = MIGRATIONS) {
      const orm = await initOrm({
        entities: ENTITIES,
        migrations,
        databaseUrl: db!.url,
        schema: 'webhooks',
        poolMax: 2,
        logger,
        secrets,
      });
      opened.push(orm);
      await migrate(orm, 'webhooks', logger);
      return orm;
    },
  };
}

/** Collects the bodies published on a subject from now on. */
export function watch(bus: NatsHandle, subject: string): { messages: Record<string, unknown>[]; stop(): void } {
  const messages: Record<string, unknown>[] = [];
  const sub = bus.nc.subscribe(subject);
  (async () => {
    for await (const m of sub) messages.push(m.json());
  })().catch(() => undefined);
  return { messages, stop: () => sub.unsubscribe() };
}

/** The AppError code a rejected client call carries. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { code: string }).code;
  }
  return 'ok';
}

/** The field errors of a rejected client call. */
export async function fieldErrorsOf(
  p: Promise<unknown>,
): Promise<{ code: string; fields: string[]; messages: string[] }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code: string; errors?: { field: string; message: string }[] };
    return {
      code: e.code,
      fields: (e.errors ?? []).map((x) => x.field),
      messages: (e.errors ?? []).map((x) => x.message),
    };
  }
  return { code: 'ok', fields: [], messages: [] };
}

/** Makes the deliveries stream and its durable records consumer, as a dispatcher makes them. */
export async function addRecordsStream(h: Harness): Promise<void> {
  await h.bus.jsm.streams.add({
    name: DELIVERIES_STREAM,
    subjects: [RECORDS_SUBJECT],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
  });
  await h.bus.jsm.consumers.add(DELIVERIES_STREAM, {
    durable_name: RECORDS_CONSUMER,
    filter_subject: RECORDS_SUBJECT,
    ack_policy: AckPolicy.Explicit,
  });
}

/**
 * Publishes a batch of attempt records as a dispatcher does (the stream and its records consumer
 * made on first use) and waits until the webhooks service has stored and acknowledged it.
 */
export async function storeRecords(
  h: Harness,
  batch: { attempts: object[]; disable?: DisableRequest[] },
): Promise<void> {
  const streams = await h.bus.jsm.streams.list().next();
  if (!streams.some((s) => s.config.name === DELIVERIES_STREAM)) await addRecordsStream(h);
  await h.bus.js.publish(RECORDS_SUBJECT, JSON.stringify({ attempts: batch.attempts, disable: batch.disable ?? [] }));
  await waitFor(
    async () => {
      const i = await h.bus.jsm.consumers.info(DELIVERIES_STREAM, RECORDS_CONSUMER);
      return i.num_pending + i.num_ack_pending === 0;
    },
    { what: 'record batch stored', timeoutMs: 15_000 },
  );
}
