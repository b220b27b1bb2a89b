// Webhooks through the console against the real stack and a receiver on loopback: create a
// subscription, send a test and read its delivery (request and response), resend a delivery, and
// the deliveries chart counting new deliveries.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Account, answer, checkPage, consoleHarness, expectClean, loopbackReceiver, turnPage } from './harness.ts';
import { tabTo } from './keys.ts';

const h = consoleHarness();
const receiver = loopbackReceiver();

/** A subscription to cdrCreated of the account, POSTing to a fresh path of the receiver. */
async function subscription(account: Account, name: string): Promise<{ id: string; path: string }> {
  const path = `/console/${randomUUID()}`;
  const res = await h.request(account, 'POST', '/v1/webhooks', {
    name,
    event: 'cdrCreated',
    resource: 'all',
    targetUrl: receiver().url(path),
  });
  expect(res.status).toBe(200);
  return { id: ((await res.json()) as { href: string }).href.split('/').pop()!, path };
}

const cdr = (account: Account, n: number) =>
  h.publish('cdr.created', {
    id: `evt-${randomUUID()}`,
    accountId: account.id,
    resource: 'call',
    timestamp: new Date().toISOString(),
    data: { n },
  });

async function deliveries(
  account: Account,
  id: string,
): Promise<{ id: string; outcome: string; trigger: string; messageId: string }[]> {
  return (await h.read(account, `/v1/webhooks/${id}/deliveries`)) as never;
}

describe('webhooks', () => {
  it('when a tenant creates a webhook and sends a test, then the result is shown and its delivery shows the request and the response', async () => {
    const account = await h.account();
    const path = `/console/${randomUUID()}`;
    receiver().on(path, answer(200, 'application/json', '{"thanks":"received"}'));
    const cp = await h.signIn(account, '/console/webhooks');
    const { page } = cp;
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByText('No webhooks at the account level yet').waitFor();
    await checkPage(cp, 'webhooks-empty');

    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Event').selectOption('cdrCreated');
    await page.getByLabel('Resource').selectOption('all');
    await page.getByLabel('Target URL').fill(receiver().url(path));
    await page.getByLabel('Name').fill('CDRs to billing');
    await page.getByLabel('Custom headers').fill('X-Team: billing');
    await checkPage(cp, 'webhook-new');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('heading', { name: 'CDRs to billing' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const saved = (await h.read(account, `/v1/webhooks/${id}`)) as Record<string, unknown>;
    expect(saved).toMatchObject({
      event: 'cdrCreated',
      resource: 'all',
      targetUrl: receiver().url(path),
      headers: { 'X-Team': '***' },
    });

    await page.getByRole('button', { name: 'Send test' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Test' }).textContent())
      .toMatch(/^Test delivered: answered 200 in \d+ ms\.$/);
    expect(receiver().at(path)).toHaveLength(1);
    expect(receiver().at(path)[0]!.headers['x-team']).toBe('billing');
    // The test's attempt is in the deliveries list.
    await page.getByRole('link', { name: /^Delivery of .*, test, succeeded$/ }).waitFor();
    await checkPage(cp, 'webhook');

    await page.getByRole('link', { name: 'See the test’s delivery' }).click();
    await page.getByRole('heading', { name: 'Delivery of test' }).waitFor();
    // The request (target, webhook-id and the body sent, formatted) and the response (status and the receiver's answer).
    await page.getByRole('definition').filter({ hasText: /^200$/ }).waitFor();
    expect(await page.getByText(receiver().url(path)).count()).toBeGreaterThan(0);
    expect(await page.getByText(String(receiver().at(path)[0]!.headers['webhook-id'])).count()).toBeGreaterThan(0);
    const sent = receiver().at(path)[0]!;
    expect(sent.body).toMatchObject({ event: 'test', resource: 'test' });
    await expect
      .poll(() => page.getByLabel('Request body of attempt 1').textContent())
      .toBe(JSON.stringify(JSON.parse(sent.raw), null, 2));
    expect(await page.getByLabel('Request body of attempt 1').textContent()).toContain('"event": "test"');
    await expect.poll(() => page.getByLabel('Response body of attempt 1').textContent()).toBe('{"thanks":"received"}');
    await checkPage(cp, 'delivery');
    expectClean(cp);
  });

  it('when the target URL is not a URL, then the problem is shown beside the Target URL field and nothing is created', async () => {
    const { account, cp, page } = await h.signedIn('/console/webhooks');
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Event').selectOption('cdrCreated');
    await page.getByLabel('Target URL').fill('not a url');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const field = page.getByLabel('Target URL');
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const problem = (await field.getAttribute('aria-describedby'))!.split(' ').find((d) => d.endsWith('-problem'))!;
    expect(await page.locator(`[id="${problem}"]`).textContent()).toMatch(/\S/);
    expect(await h.read(account, '/v1/webhooks')).toEqual([]);
    expectClean(cp, [/status of 400/]);
  });

  it('when a tenant resends a delivery, then a new attempt of the same message is made and shown', async () => {
    const account = await h.account();
    const { id, path } = await subscription(account, 'Resend me');
    receiver().on(path, answer(202, 'text/plain', 'ok'));
    await cdr(account, 1);
    const [first] = await expect
      .poll(() => deliveries(account, id), { timeout: 15_000 })
      .toHaveLength(1)
      .then(() => deliveries(account, id));
    const cp = await h.signIn(account, `/console/webhooks/${id}`);
    const { page } = cp;
    // By keyboard alone: Tab to the delivery, Enter, Tab to Resend, Enter.
    await tabTo(page, page.getByRole('link', { name: /^Delivery of .*, cdrCreated, succeeded$/ }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Delivery of cdrCreated' }).waitFor();
    await page.getByRole('heading', { name: 'Attempts (1)' }).waitFor();
    await tabTo(page, page.getByRole('button', { name: 'Resend' }));
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Resen' }).textContent(), { timeout: 15_000 })
      .toMatch(/^Resent: succeeded, 202 in \d+ ms\.$/);
    await page.getByRole('heading', { name: 'Attempts (2)' }).waitFor();
    // Both attempts show the same body sent and what the receiver answered.
    await expect.poll(() => page.getByLabel('Response body of attempt 1').textContent()).toBe('ok');
    await expect.poll(() => page.getByLabel('Response body of attempt 2').textContent()).toBe('ok');
    const sent = JSON.stringify(JSON.parse(receiver().at(path)[0]!.raw), null, 2);
    await expect.poll(() => page.getByLabel('Request body of attempt 1').textContent()).toBe(sent);
    await expect.poll(() => page.getByLabel('Request body of attempt 2').textContent()).toBe(sent);
    const after = await deliveries(account, id);
    expect(after.map((d) => d.trigger).sort()).toEqual(['event', 'resend']);
    expect(new Set(after.map((d) => d.messageId))).toEqual(new Set([first!.messageId]));
    // The receiver got the same message twice.
    expect(
      receiver()
        .at(path)
        .map((r) => r.headers['webhook-id']),
    ).toEqual([first!.messageId, first!.messageId]);
    await checkPage(cp, 'delivery-resent');
    expectClean(cp);
  });

  it('when deliveries are made, then the deliveries chart and its table count them, and the filters and a recovery work', async () => {
    const account = await h.account();
    const { id, path } = await subscription(account, 'Charted');
    // n = 3 fails once (503), then its retry succeeds.
    let failedOnce = false;
    receiver().on(path, (req) => {
      if ((req.body as { data: { n: number } }).data.n !== 3 || failedOnce) return 200;
      failedOnce = true;
      return 503;
    });
    const cp = await h.signIn(account, `/console/webhooks/${id}`);
    const { page } = cp;
    const chart = page.getByRole('img', { name: /^Deliveries of Charted/ });
    await expect
      .poll(() => chart.getAttribute('aria-label'))
      .toMatch(/: 0 attempts: 0 succeeded, 0 retrying, 0 failed$/);
    await page.locator('.chart-canvas canvas').first().waitFor();

    for (const n of [1, 2, 3]) await cdr(account, n);
    await expect
      .poll(() => chart.getAttribute('aria-label'), { timeout: 20_000 })
      .toMatch(
        /^Deliveries of Charted over the last 24 hours: 4 attempts: 3 succeeded, 1 retrying, 0 failed; p95 latency \d+ ms$/,
      );
    // The same numbers as a table (attempts, succeeded, retrying, failed summed over its rows).
    await page.getByText('Table of the numbers: Deliveries of Charted').click();
    const sums = async () => {
      const rows = await page
        .locator('details table tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll('td')].slice(1, 5).map((td) => Number(td.textContent))),
        );
      return rows.reduce((a, r) => a.map((x, i) => x + r[i]!), [0, 0, 0, 0]);
    };
    expect(await sums()).toEqual([4, 3, 1, 0]);
    // Another window, by keyboard.
    await page.getByRole('button', { name: '1 h', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => chart.getAttribute('aria-label'))
      .toMatch(/^Deliveries of Charted over the last hour: 4 attempts: 3 succeeded/);

    // Filter the deliveries by outcome.
    await page.getByRole('form', { name: 'Filter the deliveries' }).getByLabel('Outcome').selectOption('retrying');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect.poll(() => page.getByRole('link', { name: /^Delivery of / }).count()).toBe(1);
    await page.getByRole('link', { name: /^Delivery of .*, cdrCreated, retrying$/ }).waitFor();

    // A replay since an hour ago: nothing has failed for good yet.
    const since = new Date(Date.now() - 3_600_000);
    const p = (x: number) => String(x).padStart(2, '0');
    await page
      .getByLabel('Failed since')
      .fill(
        `${since.getFullYear()}-${p(since.getMonth() + 1)}-${p(since.getDate())}T${p(since.getHours())}:${p(since.getMinutes())}:00`,
      );
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    await expect
      .poll(
        () =>
          page
            .getByRole('status')
            .filter({ hasText: /^Replay/ })
            .textContent(),
        { timeout: 10_000 },
      )
      .toMatch(/^Replay (running|completed): 0 of 0 deliveries sent/);
    await checkPage(cp, 'webhook-charts');

    // Disable, then enable again.
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    expect(((await h.read(account, `/v1/webhooks/${id}`)) as { enabled: boolean }).enabled).toBe(false);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    expectClean(cp);
  });
  it('when a tenant creates an application-level webhook, edits it and rotates its secret, then the page and the API agree', async () => {
    const account = await h.account();
    const appId = await h.create(account, '/v1/applications', {
      name: 'Shop',
      voiceUrl: 'https://example.com/v.json',
    });
    const cp = await h.signIn(account, '/console/webhooks');
    const { page } = cp;
    await page.getByLabel('Level').fill('Shop');
    await page.getByRole('option', { name: 'Shop' }).click();
    await page.getByText('No webhooks of Shop yet').waitFor();
    expect(new URL(page.url()).searchParams.get('application')).toBe(appId);
    await page.getByRole('button', { name: 'New webhook' }).click();
    // Only the events an application-level subscription may name are offered.
    const offered = await page
      .getByLabel('Event')
      .locator('option')
      .evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    expect(offered).not.toContain('webhookDisabled');
    await page.getByLabel('Event').selectOption('smsdlr');
    await page.getByLabel('Resource').selectOption('sms');
    await page.getByLabel('Target URL').fill('https://example.com/dlr');
    await page.getByLabel('Payload').fill('{"team": "shop"}');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('heading', { name: 'smsdlr → https://example.com/dlr' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const listed = (await h.read(account, `/v1/applications/${appId}/webhooks`)) as {
      id: string;
      payload: unknown;
    }[];
    expect(listed).toEqual([expect.objectContaining({ id, payload: { team: 'shop' } })]);

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Name').fill('Shop receipts');
    await page.getByLabel('Target URL').fill('https://example.com/receipts');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Shop receipts' }).waitFor();
    expect(await h.read(account, `/v1/webhooks/${id}`)).toMatchObject({
      name: 'Shop receipts',
      targetUrl: 'https://example.com/receipts',
      applicationId: appId,
    });

    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const secret = page.getByLabel('Secret value');
    // The revealed value, not the masked placeholder (which starts with whsec_ too).
    await expect.poll(() => secret.textContent()).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    const first = await secret.textContent();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page
      .getByRole('dialog', { name: 'Rotate the webhook’s signing secret?' })
      .getByRole('button', { name: 'Rotate' })
      .click();
    await expect.poll(() => secret.textContent()).not.toBe(first);
    const now = ((await h.read(account, `/v1/webhooks/${id}/secret`)) as { secret: string }).secret;
    expect(await secret.textContent()).toBe(now);

    // The application's page lists it and links to it.
    await page.goto(`/console/applications/${appId}`);
    await page.getByRole('link', { name: 'Shop receipts' }).click();
    await page.getByRole('heading', { name: 'Shop receipts' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the webhook Shop receipts?' })
      .getByRole('button', { name: 'Delete webhook' })
      .click();
    await page.getByText('No webhooks of Shop yet').waitFor();
    expect(await h.read(account, `/v1/applications/${appId}/webhooks`)).toEqual([]);
    expectClean(cp);
  });
  it('when a subscription has 60 deliveries, then the list shows 25 at a time, page by page', async () => {
    const account = await h.account();
    const { id, path } = await subscription(account, 'Busy');
    receiver().on(path, () => 200);
    await Promise.all(Array.from({ length: 60 }, (_, n) => cdr(account, n)));
    const all = async () => {
      const res = await h.request(account, 'GET', `/v1/webhooks/${id}/deliveries?limit=100`);
      return ((await res.json()) as unknown[]).length;
    };
    await expect.poll(all, { timeout: 30_000 }).toBe(60);
    const cp = await h.signIn(account, `/console/webhooks/${id}`);
    const { page } = cp;
    const rows = page.getByRole('link', { name: /^Delivery of / });
    await expect.poll(() => rows.count()).toBe(25);
    const pager = page.getByRole('navigation', { name: 'Pages of deliveries' });
    await turnPage(pager, 'Next', 'Page 2');
    await expect.poll(() => rows.count()).toBe(25);
    await turnPage(pager, 'Next', 'Page 3');
    await expect.poll(() => rows.count()).toBe(10);
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await turnPage(pager, 'Previous', 'Page 2');
    expectClean(cp);
  });

  it('when a tenant edits the delivery settings, then a bad rate is refused beside its field and good ones are saved and shown', async () => {
    const account = await h.account();
    const { id } = await subscription(account, 'settings');
    const cp = await h.signIn(account, `/console/webhooks/${id}`);
    const { page } = cp;
    await page.getByRole('heading', { name: 'Delivery settings' }).waitFor();
    await page.getByRole('button', { name: 'Edit delivery settings' }).click();
    await page.getByLabel('Rate limit (deliveries per second)').fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    // The API's 400 names rateLimit.perSecond: it is shown beside the field, and nothing is stored.
    const rate = page.getByLabel('Rate limit (deliveries per second)');
    await expect.poll(() => rate.getAttribute('aria-invalid')).toBe('true');
    expect(((await h.read(account, `/v1/webhooks/${id}`)) as { rateLimit?: unknown }).rateLimit).toBeUndefined();
    await checkPage(cp, 'webhook-settings-problem');

    await rate.fill('5');
    await page.getByLabel('Ordering key').fill('messageId');
    await page.getByLabel('Timeout per attempt (ms)').fill('5000');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('5 per second').waitFor();
    await page.getByText('held at most 3,600 s').waitFor();
    const saved = (await h.read(account, `/v1/webhooks/${id}`)) as Record<string, unknown>;
    expect(saved).toMatchObject({
      timeoutMs: 5000,
      rateLimit: { perSecond: 5 },
      ordering: { key: 'messageId', maxHoldSeconds: 3600 },
    });
    // An OAuth2 setting without its secret is caught before it is sent.
    await page.getByRole('button', { name: 'Edit delivery settings' }).click();
    await page.getByLabel('Authentication').selectOption('oauth2_client_credentials');
    await page.getByLabel('Token URL').fill('https://auth.example.com/token');
    await page.getByLabel('Client ID').fill('switchboard');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByLabel('Client secret').getAttribute('aria-invalid')).toBe('true');
    await checkPage(cp, 'webhook-settings');
    expectClean(cp, [/status of 400/]);
  });
});
