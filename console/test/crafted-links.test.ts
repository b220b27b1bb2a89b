// Crafted console links against the real stack: an id in the console's address is checked for its
// kind's format and percent-encoded into the API path, so a link whose id smuggles `/../` reaches
// no other resource (before, /console/applications/<app>%2F..%2F..%2Fwebhooks%2F<wh> showed, and
// Delete deleted, the subscription). The browser keeps the __Host-sb_session cookie over http on
// loopback.
import { describe, expect, it } from 'vitest';
import { consoleHarness, expectClean } from './harness.ts';

const h = consoleHarness();

describe('crafted links', () => {
  it('when an application link smuggles a path to a subscription, then the page is not found and no request leaves the application path', async () => {
    const account = await h.account();
    const app = await h.create(account, '/v1/applications', { name: 'Victim app', voiceUrl: 'https://example.com/v' });
    const hook = await h.create(account, '/v1/webhooks', {
      name: 'Victim hook',
      event: 'smsdlr',
      resource: 'sms',
      targetUrl: 'https://example.com/hook',
    });
    const cp = await h.signIn(account, '/console/applications');
    const { page } = cp;
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    const cookies = await cp.context.cookies();
    expect(cookies.map((c) => [c.name, c.secure, c.httpOnly, c.sameSite, c.path])).toEqual([
      ['__Host-sb_session', true, true, 'Strict', '/'],
    ]);
    const apiPaths: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/v1/')) apiPaths.push(`${r.method()} ${u.pathname}`);
    });
    for (const crafted of [`${app}/../../webhooks/${hook}`, `${app}%2F..%2F..%2Fwebhooks%2F${hook}`, `${app}x`]) {
      await page.goto(`/console/applications/${encodeURIComponent(crafted)}`);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await page.getByRole('button', { name: /Delete/ }).count(), crafted).toBe(0);
    }
    await page.goto(`/console/webhooks/${encodeURIComponent(`${hook}/../../applications/${app}`)}`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(apiPaths.filter((p) => p.includes('/webhooks/') || p.includes(`/applications/${app}`))).toEqual([]);
    expect((await h.request(account, 'GET', `/v1/webhooks/${hook}`)).status).toBe(200);
    expect((await h.request(account, 'GET', `/v1/applications/${app}`)).status).toBe(200);
    expectClean(cp);
  });

  it('when a session link carries an id with slashes and dots, then it is sent encoded and the session is not found', async () => {
    const account = await h.account();
    const app = await h.create(account, '/v1/applications', { name: 'Other app', voiceUrl: 'https://example.com/v' });
    const cp = await h.signIn(account, '/console/sessions');
    const { page } = cp;
    await page.getByRole('heading', { name: 'Sessions', exact: true, level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    const asked: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/v1/sessions/') || u.pathname.startsWith(`/v1/applications/${app}`))
        asked.push(u.pathname);
    });
    const crafted = `x/../../applications/${app}`;
    await page.goto(`/console/sessions/${encodeURIComponent(crafted)}`);
    await page.getByRole('heading', { name: 'Session not found' }).waitFor();
    expect(asked).toEqual([`/v1/sessions/${encodeURIComponent(crafted)}`]);
    expectClean(cp, [/status of 404/]);
  });
});
