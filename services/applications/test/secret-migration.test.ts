// The migration that gives applications created before session secrets existed their own secret,
// sealed with the service's SECRETS_KEY, run the way the service and the release Job run it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@switchboard/observability';
import { SecretBox } from '@switchboard/security';
import { applicationsClient } from '@switchboard/proto';
import {
  createTestDatabase,
  freePort,
  newSecretsKey,
  queryDatabase,
  startNatsServer,
  type NatsServer,
  type TestDatabase,
} from '../../../test/support';
import { createApp, loadConfig } from '../src/app';
import { migrateApplications } from './migrate';

const logger = createLogger('test', 'silent');
let db: TestDatabase;
let nats: NatsServer;
const key = newSecretsKey();

beforeAll(async () => {
  [db, nats] = await Promise.all([createTestDatabase(), startNatsServer()]);
});
afterAll(async () => {
  await nats?.destroy();
  await db?.drop();
});

describe('the session secrets migration', () => {
  it('when applications have no secret, then it refuses to run without SECRETS_KEY, and with it gives each one its own sealed secret that LookupApplication serves', async () => {
    await migrateApplications(db.url, SecretBox.fromText(key));
    // The state before the migration: applications without secrets, the migration not applied.
    const ids = ['a'.repeat(24), 'b'.repeat(24)];
    await queryDatabase(
      db.url,
      `insert into applications.accounts (id, username, password_hash) values (9001, 'old-timer', 'x');
       insert into applications.applications (id, account_id, name, voice_url, environment_id, api_type)
         values ('${ids[0]}', 9001, 'one', 'https://example.com/1', 2, 'scripting'), ('${ids[1]}', 9001, 'two', 'https://example.com/2', 1, 'webapi');
       delete from applications.mikro_orm_migrations where name = 'Migration004SessionSecrets';`,
    );

    await expect(migrateApplications(db.url, undefined)).rejects.toThrow(/SECRETS_KEY is required/);
    expect(await queryDatabase(db.url, 'select * from applications.application_secrets')).toEqual([]);

    await migrateApplications(db.url, SecretBox.fromText(key));
    const rows = await queryDatabase<{ application_id: string; secret: string; previous_secret: string | null }>(
      db.url,
      'select application_id, secret, previous_secret from applications.application_secrets order by application_id',
    );
    expect(rows.map((r) => r.application_id)).toEqual(ids);
    const box = SecretBox.fromText(key);
    const secrets = rows.map((r) => {
      expect(r.secret).toMatch(/^enc:v1:/);
      expect(r.previous_secret).toBeNull();
      return box.open(r.secret, r.application_id);
    });
    for (const s of secrets) expect(Buffer.from(s.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);
    expect(new Set(secrets).size).toBe(2);

    // The service started on this database (its migrations up to date) serves them.
    const [grpcPort, opsPort] = await Promise.all([freePort(), freePort()]);
    const app = await createApp(
      loadConfig({
        DATABASE_URL: db.url,
        NATS_URL: nats.url,
        HOST: '127.0.0.1',
        GRPC_PORT: String(grpcPort),
        OPS_PORT: String(opsPort),
        SECRETS_KEY: key,
        LOG_LEVEL: 'silent',
      }),
      logger,
    );
    await app.start();
    const client = applicationsClient(`127.0.0.1:${grpcPort}`);
    try {
      expect((await client.lookupApplication({ id: ids[0]! })).signingSecrets).toEqual([secrets[0]]);
      expect((await client.getApplicationSecret({ accountId: '9001', id: ids[1]! })).secret).toBe(secrets[1]);
    } finally {
      client.close();
      await app.stop();
    }
  });

  it('when the service is started without SECRETS_KEY, then its configuration names the variable', () => {
    expect(() => loadConfig({})).toThrow(/SECRETS_KEY: is required/);
    expect(() => loadConfig({ SECRETS_KEY: 'abc' })).toThrow(/SECRETS_KEY: must be a 32-byte key/);
  });
});
