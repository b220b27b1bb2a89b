import { describe, expect, it } from 'vitest';
import { checkPage, expectClean, consoleHarness } from './harness.ts';

const h = consoleHarness();

describe('signing in', () => {
  it('when a browser opens /, then it lands on the sign-in page of the console, and signing in shows the applications', async () => {
    const account = await h.account();
    const cp = await h.open('/');
    const { page } = cp;
    await page.getByLabel('Username').waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await checkPage(cp, 'sign-in');
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Applications', 'Webhooks', 'Sessions', 'API keys', 'Audit log'])
      expect(await nav.getByRole('link', { name, exact: true }).count()).toBe(1);
    expect(await nav.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    // Nothing of the sign-in is kept in the page's storage.
    const stored = (await page.evaluate('JSON.stringify([{...localStorage}, {...sessionStorage}])')) as string;
    expect(stored).toBe('[{},{}]');
    expect(stored).not.toContain(account.password);
    expectClean(cp, [/status of 401/]);
  });

  it('when the password is wrong, then the problem is said in an alert and the tenant stays on the sign-in page', async () => {
    const account = await h.account();
    const cp = await h.open('/console/');
    const { page } = cp;
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong username or password');
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    expectClean(cp, [/status of 401/]);
  });
});
