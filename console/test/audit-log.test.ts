// The audit log through the console: the tenant's own actions, newest first, and its filters.
import { describe, expect, it } from 'vitest';
import { checkPage, consoleHarness, expectClean } from './harness.ts';

const h = consoleHarness();

describe('the audit log', () => {
  it('when a tenant has signed in, created an application, read its secret and created a key, then the log lists them newest first and filters by action', async () => {
    const account = await h.account();
    const created = await h.request(account, 'POST', '/v1/applications', {
      name: 'Audited',
      voiceUrl: 'https://example.com/v.json',
    });
    const appId = ((await created.json()) as { href: string }).href.split('/').pop()!;
    await h.request(account, 'GET', `/v1/applications/${appId}/secret`);
    await h.request(account, 'POST', '/v1/api-keys', { name: 'ci', scope: 'read' });
    const cp = await h.signIn(account, '/console/audit-log');
    const { page } = cp;
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const actions = page.locator('tbody tr td:nth-child(2)');
    await expect
      .poll(() => actions.allTextContents())
      .toEqual(['session.sign-in', 'api-key.create', 'application.secret.read', 'application.create']);
    await page.getByRole('cell', { name: `/rest/v1/applications/${appId}`, exact: true }).waitFor();
    await checkPage(cp, 'audit-log');

    await page.getByLabel('Action').selectOption('api-key.create');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => actions.allTextContents()).toEqual(['api-key.create']);

    await page.getByLabel('Action').selectOption('');
    await page.getByLabel('Since').fill('2099-01-01T00:00:00');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No entries match').waitFor();
    expectClean(cp);
  });
});
