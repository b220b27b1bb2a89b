// API keys through the console: the key shown once with a copy button, the list, revoke.
import { describe, expect, it } from 'vitest';
import { checkPage, consoleHarness, expectClean } from './harness.ts';

const h = consoleHarness();

describe('API keys', () => {
  it('when a tenant creates a key, then it is shown once and works; when they revoke it, then the API refuses it', async () => {
    const { cp, page } = await h.signedIn('/console/api-keys');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByText('No API keys yet').waitFor();
    await page.getByLabel('Name').fill('deploy bot');
    await page.getByLabel('Scope').selectOption('read');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('Your new key', { exact: true });
    await expect.poll(() => shown.textContent()).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
    const key = (await shown.textContent())!;
    // Nothing of it is kept in the page's storage.
    expect(await page.evaluate('JSON.stringify([{ ...localStorage }, { ...sessionStorage }])')).toBe('[{},{}]');
    await page.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await page.getByRole('cell', { name: 'deploy bot', exact: true }).waitFor();
    await page.getByRole('cell', { name: `${key.slice(0, 8)}…` }).waitFor();
    await checkPage(cp, 'api-keys');

    const withKey = () => fetch(`${h.baseUrl}/v1/applications`, { headers: { authorization: `Bearer ${key}` } });
    expect((await withKey()).status).toBe(200);
    // Shown once: after Done, or on the next visit, only the prefix remains.
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByText(key).count()).toBe(0);

    await page.getByRole('button', { name: 'Revoke deploy bot' }).click();
    await page.getByRole('dialog', { name: 'Revoke deploy bot?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Revoked deploy bot').waitFor();
    await page.getByText('No API keys yet').waitFor();
    await expect.poll(async () => (await withKey()).status).toBe(401);
    expectClean(cp);
  });

  it('when the name is empty, then the problem is shown beside the Name field', async () => {
    const { cp, page } = await h.signedIn('/console/api-keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    const name = page.getByLabel('Name');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expectClean(cp, [/status of 400/]);
  });
});
