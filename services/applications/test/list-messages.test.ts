// A list's messages are made from the rows as read (timestamps from their text, no Date): each item
// must be the message GetApplication answers for that application, alone or in a batch of lists.
import { describe, expect, it } from 'vitest';
import { applicationsClient, callBatcher } from '@switchboard/proto';
import { queryDatabase, useServices, type Services } from '../../../test/support';

let stack: Services<Record<string, never>>;

useServices({}, (s) => (stack = s));

describe('list messages', () => {
  it('when applications with every kind of field and timestamp are listed alone and in a batch, then each item is the message of GetApplication', async () => {
    const accountId = await stack.newAccount();
    const client = stack.applications.client;
    await client.createApplication({ accountId, name: 'plain', voiceUrl: 'https://example.com/voice' });
    await client.createApplication({
      accountId,
      name: 'all urls',
      voiceUrl: 'https://example.com/v',
      messagingUrl: 'https://example.com/m',
      voiceFallbackUrl: 'https://example.com/vf',
      messagingFallbackUrl: 'https://example.com/mf',
    });
    await client.createApplication({ accountId, name: 'ünïcode ☎', messagingUrl: 'https://example.com/sms' });
    // Timestamps as Postgres may hold them: microseconds, whole seconds, a partition of an old application.
    await queryDatabase(
      stack.databaseUrl,
      `update applications.applications set created_at = case name when 'plain' then timestamptz '2024-02-29 23:59:59.999999+00' when 'all urls' then timestamptz '2001-01-01 00:00:00+00' else timestamptz '1999-12-31 12:34:56.07+00' end,
         updated_at = now(), partition = case when name = 'plain' then 'p1' else null end where account_id = $1`,
      [accountId],
    );
    const { applications } = await client.listApplications({ accountId, limit: 10, cursor: '' });
    expect(applications.map((a) => a.name)).toEqual(['plain', 'all urls', 'ünïcode ☎']);
    for (const a of applications) expect(a).toEqual((await client.getApplication({ accountId, id: a.id })).application);
    expect(applications.map((a) => a.createdAt)).toEqual([
      '2024-02-29T23:59:59.999Z',
      '2001-01-01T00:00:00.000Z',
      '1999-12-31T12:34:56.070Z',
    ]);
    expect(applications[0]!.partition).toBe('p1');
    expect(applications[1]).not.toHaveProperty('partition');

    // The same pages asked for together (one batch, one statement) and page by page with a cursor.
    const address = `127.0.0.1:${stack.applications.grpcPort}`;
    const batch = callBatcher(address, { target: 'applications', maxInFlight: 1 });
    const batched = applicationsClient(address, { batch });
    try {
      const [whole, first, other] = await Promise.all([
        batched.listApplications({ accountId, limit: 10, cursor: '' }),
        batched.listApplications({ accountId, limit: 2, cursor: '' }),
        batched.listApplications({ accountId: '987654321987', limit: 10, cursor: '' }),
      ]);
      expect(whole.applications).toEqual(applications);
      expect(first.applications).toEqual(applications.slice(0, 2));
      expect(other.applications).toEqual([]);
      const second = await batched.listApplications({ accountId, limit: 2, cursor: first.nextCursor });
      expect(second.applications).toEqual(applications.slice(2));
      expect(second.nextCursor).toBe('');
    } finally {
      batched.close();
      batch.close();
    }
  });
});
