// Subscription signing secrets are sealed with SECRETS_KEY in Postgres; the migration seals the ones
// stored in plaintext before; the gRPC answers (to the owner, to the dispatcher) stay in clear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '@switchboard/security';
import { queryDatabase, waitFor } from '../../../test/support';
import { startHarness, type Harness } from './harness';

let h: Harness;
let box: SecretBox;

beforeAll(async () => {
  h = await startHarness();
  box = SecretBox.fromText(h.env.SECRETS_KEY!);
});
afterAll(async () => h?.stop());

const valid = { event: 'cdrCreated', resource: 'call', targetUrl: 'https://example.com/hook' };
const secretRow = async (id: string) =>
  (
    await queryDatabase<{ secret: string; previous_secret: string | null }>(
      h.db.url,
      'select secret, previous_secret from webhooks.subscription_secrets where subscription_id = $1',
      [id],
    )
  )[0]!;

describe('subscription secrets at rest', () => {
  it('when created and rotated, then the stored current and previous secrets are sealed for their subscription, and the RPCs answer them in clear', async () => {
    const acct = await h.newAccount();
    const client = h.webhooks.client;
    const created = await client.createSubscription({ accountId: acct, ...valid });
    const id = created.subscription!.id;
    expect(created.secret).toMatch(/^whsec_/);
    let row = await secretRow(id);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(box.open(row.secret, id)).toBe(created.secret);

    const { secret: rotated } = await client.rotateSecret({ accountId: acct, id });
    row = await secretRow(id);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.previous_secret).toMatch(/^enc:v1:/);
    expect(box.open(row.secret, id)).toBe(rotated);
    expect(box.open(row.previous_secret!, id)).toBe(created.secret);
    expect((await client.getSecret({ accountId: acct, id })).secret).toBe(rotated);
    const match = await client.matchSubscriptions({ accountId: acct, event: 'cdrCreated', resource: 'call' });
    expect(match.subscriptions.find((m) => m.subscription!.id === id)!.secrets).toEqual([rotated, created.secret]);

    const dump = await queryDatabase<{ row: string }>(
      h.db.url,
      'select to_jsonb(t)::text as row from webhooks.subscription_secrets t',
    );
    expect(dump.map((r) => r.row).join('\n')).not.toContain('whsec_');
    // The table holds sealed values only.
    await expect(
      queryDatabase(h.db.url, `update webhooks.subscription_secrets set secret = $1 where subscription_id = $2`, [
        rotated,
        id,
      ]),
    ).rejects.toThrow(/subscription_secrets_sealed/);
  });

  it('when secrets were stored in plaintext before, then the migration seals them (current and previous) and they keep working', async () => {
    const acct = await h.newAccount();
    const client = h.webhooks.client;
    const a = await client.createSubscription({ accountId: acct, ...valid });
    const b = await client.createSubscription({ accountId: acct, ...valid, targetUrl: 'https://example.com/other' });
    const [idA, idB] = [a.subscription!.id, b.subscription!.id];
    const previous = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    // The state before encryption existed: plaintext rows, no constraint, the migration not applied.
    await queryDatabase(
      h.db.url,
      `alter table webhooks.subscription_secrets drop constraint subscription_secrets_sealed, drop constraint subscription_secrets_previous_sealed;
       delete from webhooks.mikro_orm_migrations where name = 'Migration003SealSecrets';`,
    );
    await queryDatabase(
      h.db.url,
      `update webhooks.subscription_secrets set secret = $1, previous_secret = $2, previous_expires_at = now() + interval '1 hour' where subscription_id = $3`,
      [a.secret, previous, idA],
    );
    await queryDatabase(h.db.url, `update webhooks.subscription_secrets set secret = $1 where subscription_id = $2`, [
      b.secret,
      idB,
    ]);

    // A webhooks service started now migrates (MIGRATE_ON_START) with its SECRETS_KEY.
    await h.webhooks.stop();
    await h.webhooks.start();
    // The client's channel reconnects after its backoff.
    const current = await waitFor(
      () => h.webhooks.client.getSecret({ accountId: acct, id: idB }).then((r) => r.secret),
      { what: 'the restarted webhooks service' },
    );
    expect(current).toBe(b.secret);
    const rowA = await secretRow(idA);
    const rowB = await secretRow(idB);
    for (const v of [rowA.secret, rowA.previous_secret, rowB.secret]) expect(v).toMatch(/^enc:v1:/);
    expect(rowB.previous_secret).toBeNull();
    expect(box.open(rowA.secret, idA)).toBe(a.secret);
    expect(box.open(rowA.previous_secret!, idA)).toBe(previous);
    const match = await h.webhooks.client.matchSubscriptions({
      accountId: acct,
      event: 'cdrCreated',
      resource: 'call',
    });
    expect(match.subscriptions.find((m) => m.subscription!.id === idA)!.secrets).toEqual([a.secret, previous]);
    const constraints = await queryDatabase<{ conname: string }>(
      h.db.url,
      `select conname from pg_constraint where conname like 'subscription_secrets_%sealed' order by conname`,
    );
    expect(constraints.map((c) => c.conname)).toEqual([
      'subscription_secrets_previous_sealed',
      'subscription_secrets_sealed',
    ]);
  });

  it('when the service starts with another SECRETS_KEY, then reading a sealed secret fails as an internal error that names the variable and quotes no secret', async () => {
    const acct = await h.newAccount();
    const { subscription, secret } = await h.webhooks.client.createSubscription({ accountId: acct, ...valid });
    const other = await h.startWebhooks({ SECRETS_KEY: Buffer.alloc(32, 1).toString('hex') });
    try {
      let message = '';
      await other.client
        .getSecret({ accountId: acct, id: subscription!.id })
        .catch((err: Error) => (message = err.message));
      expect(message).toMatch(/SECRETS_KEY/);
      expect(message).not.toContain(secret.slice(6, 20));
    } finally {
      await other.stop();
    }
  });

  it('when custom headers were stored in clear or sealed for the whole subscription, then the migration seals each value for its field and deliveries still carry them', async () => {
    const acct = await h.newAccount();
    const created = await h.webhooks.client.createSubscription({
      accountId: acct,
      ...valid,
      headersJson: '{"Authorization":"Bearer old","X-Api-Key":"k-123"}',
    });
    const id = created.subscription!.id;
    // The state before: Authorization sealed for the subscription, other values in clear, the migration not applied.
    const legacy = { Authorization: box.seal('Bearer old', id), 'X-Api-Key': 'k-123' };
    await queryDatabase(h.db.url, `update webhooks.subscriptions set headers = $1::json where id = $2`, [
      JSON.stringify(legacy),
      id,
    ]);
    // Read both while old rows remain: the dispatcher's answer opens them as stored.
    let match = await h.webhooks.client.matchSubscriptions({ accountId: acct, event: 'cdrCreated', resource: 'call' });
    expect(match.subscriptions.find((m) => m.subscription!.id === id)!.headers).toEqual({
      Authorization: 'Bearer old',
      'X-Api-Key': 'k-123',
    });
    await queryDatabase(h.db.url, `delete from webhooks.mikro_orm_migrations where name = 'Migration013SealHeaders'`);
    await h.webhooks.stop();
    await h.webhooks.start();
    match = await waitFor(
      () => h.webhooks.client.matchSubscriptions({ accountId: acct, event: 'cdrCreated', resource: 'call' }),
      { what: 'the restarted webhooks service' },
    );
    expect(match.subscriptions.find((m) => m.subscription!.id === id)!.headers).toEqual({
      Authorization: 'Bearer old',
      'X-Api-Key': 'k-123',
    });
    const [row] = await queryDatabase<{ headers: Record<string, string> }>(
      h.db.url,
      'select headers from webhooks.subscriptions where id = $1',
      [id],
    );
    expect(box.open(row!.headers.Authorization!, `${id}:header:authorization`)).toBe('Bearer old');
    expect(box.open(row!.headers['X-Api-Key']!, `${id}:header:x-api-key`)).toBe('k-123');
    // Swapped between fields, a value does not open: the dispatcher's lookup fails rather than send it.
    const swapped = { Authorization: row!.headers['X-Api-Key'], 'X-Api-Key': row!.headers.Authorization };
    await queryDatabase(h.db.url, `update webhooks.subscriptions set headers = $1::json where id = $2`, [
      JSON.stringify(swapped),
      id,
    ]);
    await expect(h.webhooks.client.getDeliveryTarget({ accountId: acct, subscriptionId: id })).rejects.toThrow(
      /SECRETS_KEY/,
    );
  });
});
