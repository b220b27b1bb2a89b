// The audit log through the console: the tenant's own actions, newest first, and its filters.
import { describe, expect, it } from 'vitest';
import { checkPage, consoleHarness, expectClean, turnPage } from './harness.ts';

const h = consoleHarness();

describe('the audit log', () => {
  it('when a tenant has signed in, created an application, read its secret and created a key, then the log lists them newest first and filters by action', async () => {
    const account = await h.account();
    const appId = await h.create(account, '/v1/applications', {
      name: 'Audited',
      voiceUrl: 'https://example.com/v.json',
    });
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

  it('when the log has 61 entries, then the page shows 50 at a time, page by page', async () => {
    const account = await h.account();
    const create = async (i: number) => {
      await h.create(account, '/v1/applications', {
        name: `Logged ${i}`,
        voiceUrl: 'https://example.com/v.json',
      });
    };
    // One first, which puts the password in the gateway's cache; then 20 at a time: 60 creates and the sign-in.
    await create(0);
    for (let i = 1; i < 60; i += 20)
      await Promise.all(Array.from({ length: Math.min(20, 60 - i) }, (_, j) => create(i + j)));
    const cp = await h.signIn(account, '/console/audit-log');
    const { page } = cp;
    const rows = page.locator('tbody tr');
    const pager = page.getByRole('navigation', { name: 'Pages of the audit log' });
    await pager.getByText('Page 1').waitFor();
    expect(await rows.count()).toBe(50);
    // Newest first: the sign-in, then the last applications created.
    expect(await rows.first().locator('td').nth(1).textContent()).toBe('session.sign-in');
    await turnPage(pager, 'Next', 'Page 2');
    await expect.poll(() => rows.count()).toBe(11);
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await turnPage(pager, 'Previous', 'Page 1');
    await expect.poll(() => rows.count()).toBe(50);
    expectClean(cp);
  });
});
