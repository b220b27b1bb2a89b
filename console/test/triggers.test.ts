// Triggers and usage through the console against the real stack: alert and usage triggers are
// created (a bad window is named beside its field), listed and deleted; the Usage page charts the
// sessions of the last 30 days with the table of its numbers beside it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { answer, checkPage, consoleHarness, expectClean, loopbackReceiver } from './harness.ts';

const h = consoleHarness();
const receiver = loopbackReceiver();

describe('triggers and usage', () => {
  it('when a user creates and deletes triggers, then the lists follow, and a bad window is named beside its field', async () => {
    const account = await h.account();
    const appId = await h.create(account, '/v1/applications', {
      name: 'Front desk',
      voiceUrl: receiver().url('/front/voice'),
    });
    const cp = await h.signIn(account, '/console/triggers');
    const { page } = cp;
    await page.getByRole('heading', { name: 'Triggers', level: 1 }).waitFor();
    await page.getByText('No alert triggers yet.').waitFor();
    await page.getByText('No usage triggers yet.').waitFor();
    await checkPage(cp, 'triggers-empty');

    const alertForm = page.getByRole('form', { name: 'Create an alert trigger' });
    await alertForm.getByLabel('Alert code').selectOption('app.not_json');
    await alertForm.getByLabel('Threshold').fill('100');
    await alertForm.getByLabel('Window').fill('30s');
    await alertForm.getByRole('button', { name: 'Create alert trigger' }).click();
    await alertForm.getByText('must be from 1m to 24h').waitFor();
    await checkPage(cp, 'triggers-problem');
    await alertForm.getByLabel('Window').fill('1m');
    // Of one application, chosen by name.
    const picker = alertForm.getByRole('combobox', { name: 'Application', exact: true });
    expect(await picker.inputValue()).toBe('Every application');
    await picker.fill('Front');
    await page.getByText('1 application matches').waitFor();
    await picker.press('Enter');
    await alertForm.getByRole('button', { name: 'Create alert trigger' }).click();
    await page.getByRole('status').getByText('Created the alert trigger on app.not_json at 100 within 1m.').waitFor();
    const alertRows = page.getByRole('table', { name: 'Alert triggers' }).locator('tbody tr');
    await expect.poll(() => alertRows.count()).toBe(1);
    await alertRows.first().getByRole('link', { name: 'Front desk' }).waitFor();
    expect(await alertRows.first().getByRole('link').getAttribute('href')).toBe(`/console/applications/${appId}`);

    const usageForm = page.getByRole('form', { name: 'Create a usage trigger' });
    await usageForm.getByLabel('Category').selectOption('sessions.voice');
    await usageForm.getByLabel('Usage threshold').fill('1000');
    await usageForm.getByLabel('Recurring').selectOption('monthly');
    await usageForm.getByRole('button', { name: 'Create usage trigger' }).click();
    const usageRows = page.getByRole('table', { name: 'Usage triggers' }).locator('tbody tr');
    await expect.poll(() => usageRows.count()).toBe(1);
    expect(await usageRows.first().textContent()).toContain('Every UTC month');
    await checkPage(cp, 'triggers');

    await page.getByRole('button', { name: 'Delete the alert trigger app.not_json at 100 within 1m' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete trigger' }).click();
    await page.getByText('No alert triggers yet.').waitFor();
    const left = (await h.read(account, '/v1/alert-triggers')) as unknown[];
    expect(left).toEqual([]);
    expect(await usageRows.count()).toBe(1);
    // The refused window is the only failed request.
    expectClean(cp, [/status of 400/]);
  });

  it('when sessions ran today, then the Usage page charts them with the table of its numbers beside the chart', async () => {
    const account = await h.account();
    const base = `/console/${randomUUID()}`;
    receiver().on(`${base}/voice`, answer(200, 'application/json', JSON.stringify({ tropo: [{ hangup: null }] })));
    const { token } = await h.voiceApplication(account, {
      name: 'Usage desk',
      voiceUrl: receiver().url(`${base}/voice`),
    });
    for (let i = 0; i < 2; i++) {
      await h.launch(token);
    }
    await expect
      .poll(async () => ((await h.read(account, '/v1/usage?category=sessions')) as { total: number }).total, {
        timeout: 20_000,
      })
      .toBe(2);

    const cp = await h.signIn(account, '/console/usage');
    const { page } = cp;
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: /^Sessions per UTC day over the last 30 days/ });
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBe(30);
    expect(await table.locator('tbody tr').last().locator('td').last().textContent()).toBe('2');
    expect(await table.locator('tfoot td').textContent()).toBe('2');
    await page.getByRole('img', { name: /^Sessions per UTC day over the last 30 days: 2 in all/ }).waitFor();
    await checkPage(cp, 'usage');

    await page.getByLabel('Category').selectOption('launches');
    await page.getByRole('img', { name: /^Session API launches per UTC day .*: 2 in all/ }).waitFor();
    await page.getByRole('button', { name: 'Month' }).click();
    const months = page.getByRole('table', { name: /^Session API launches per UTC month over the last 12 months/ });
    await months.waitFor();
    expect(await months.locator('tbody tr').count()).toBe(12);
    await checkPage(cp, 'usage-months');
    expectClean(cp);
  });
});
