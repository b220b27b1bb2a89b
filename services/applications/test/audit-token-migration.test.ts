// The migration that masks the session tokens in audit targets recorded before they were masked,
// run the way the service and the release Job run it: a token address's claim, move and release
// entries read .../addresses/token/***; other entries and other addresses keep their targets.
import { describe, expect, it } from 'vitest';
import { useTestDatabase, queryDatabase, type TestDatabase } from '../../../test/support';
import { migrateApplications } from './migrate';

let db: TestDatabase;

useTestDatabase((d) => (db = d));

describe('the audit target masking migration', () => {
  it('when audit entries name a live session token, then the migration masks each, and leaves every other target as it was', async () => {
    await migrateApplications(db.url);
    const app = '/rest/v1/applications/aaaaaaaaaaaaaaaaaaaaaaaa';
    const token = 'f'.repeat(64);
    const entries: [string, string][] = [
      ['address.claim', `${app}/addresses/token/${token}`],
      ['address.move', `${app}/addresses/token/${token}`],
      ['address.release', `${app}/addresses/token/${token}`],
      ['address.claim', `${app}/addresses/number/+14075550100`],
      ['address.claim', `${app}/addresses/sip/sip:abc@sip.example.com`],
      ['application.update', app],
    ];
    // The state before the migration: entries recorded with the token in clear.
    await queryDatabase(
      db.url,
      `insert into applications.accounts (id, username, password_hash) values (9001, 'old-timer', 'x');
       delete from applications.mikro_orm_migrations where name = 'Migration009MaskTokenAuditTargets';`,
    );
    for (const [action, target] of entries)
      await queryDatabase(
        db.url,
        `insert into applications.audit_events (account_id, actor_type, actor_id, action, target, outcome)
         values (9001, 'password', '9001', $1, $2, 'success')`,
        [action, target],
      );

    await migrateApplications(db.url);
    const rows = await queryDatabase<{ action: string; target: string }>(
      db.url,
      'select action, target from applications.audit_events order by id',
    );
    expect(rows.map((r) => [r.action, r.target])).toEqual([
      ['address.claim', `${app}/addresses/token/***`],
      ['address.move', `${app}/addresses/token/***`],
      ['address.release', `${app}/addresses/token/***`],
      ['address.claim', `${app}/addresses/number/+14075550100`],
      ['address.claim', `${app}/addresses/sip/sip:abc@sip.example.com`],
      ['application.update', app],
    ]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});
