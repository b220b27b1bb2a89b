import { describe, expect, it } from 'vitest';
import { checkPage, expectClean, consoleHarness } from './harness.ts';

const h = consoleHarness();

/** The main navigation's links, in order. */
const NAV = ['Applications', 'Webhooks', 'Sessions', 'Alerts', 'Usage', 'Triggers', 'API keys', 'Audit log'];

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
    for (const name of ['Applications', 'Webhooks', 'Sessions', 'Alerts', 'API keys', 'Audit log'])
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

describe('signing out and expiry', () => {
  it('when the tenant signs out, then the sign-in page shows and the cookie no longer opens the console', async () => {
    const { cp, page } = await h.signedIn();
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await cp.context.cookies()).toEqual([]);
    await page.goto('/console/api-keys');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe('/api-keys');
    expectClean(cp);
  });

  it('when the session ends while the tenant works, then the next page asks to sign in again and then returns to that page', async () => {
    const { account, cp, page } = await h.signedIn('/console/api-keys');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    // The session ends on the server (as at its idle or absolute expiry).
    const [cookie] = await cp.context.cookies();
    const ended = await fetch(`${h.baseUrl}/v1/console/session`, {
      method: 'DELETE',
      headers: { cookie: `${cookie!.name}=${cookie!.value}`, origin: h.baseUrl },
    });
    expect(ended.status).toBe(204);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByText('Your session ended').waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/audit-log');
    // The one 401 is the expired session's.
    expectClean(cp, [/status of 401/]);
    expect(cp.errors.length).toBe(1);
  });

  it('when the tenant uses only the keyboard, then they can sign in and reach every page of the navigation', async () => {
    const account = await h.account();
    const cp = await h.open('/console/');
    const { page } = cp;
    await page.getByLabel('Username').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type(account.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(account.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    const seen: string[] = [];
    for (let i = 0; i < 16 && seen.length < 8; i++) {
      await page.keyboard.press('Tab');
      const focused = (await page.evaluate('document.activeElement.textContent')) as string;
      if ([...NAV, 'Sign out'].includes(focused)) seen.push(focused);
      if (focused === 'Audit log') {
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { name: 'Audit log' }).waitFor();
        // The new page's heading has the focus, so the next Tab starts in the page.
        expect(await page.evaluate('document.activeElement.tagName')).toBe('H1');
        break;
      }
    }
    expect(seen).toEqual(NAV);
    expectClean(cp);
  });
});
