// A webhook's delivery settings and its Replay panel through the console against the real stack:
// settings typed on the create and edit forms are what the API stores, write-only secrets are shown
// as set and never put in the page, the API's 400 is shown beside the field it names, and a replay
// by session ids is counted, started, followed and cancelled.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  checkPage,
  consoleHarness,
  expectClean,
  fillIn,
  loopbackReceiver,
  SCREENSHOTS,
} from './harness.ts';

const h = consoleHarness();
const receiver = loopbackReceiver();

/** A self-signed certificate and its key, and another key that does not belong to it (openssl). */
let pem: { cert: string; key: string; otherKey: string };
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-console-tls-'));
  try {
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
    run('req', '-x509', ...ec, '-days', '2', '-subj', '/CN=console', '-keyout', 'a.key', '-out', 'a.crt');
    run('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'b.key');
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    pem = { cert: read('a.crt'), key: read('a.key'), otherKey: read('b.key') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const webhookOf = async (account: Account, id: string) =>
  (await h.read(account, `/v1/webhooks/${id}`)) as Record<string, unknown>;

/** The text of the problem shown beside a field (its aria-describedby's `-problem`), or undefined. */
async function problemOf(page: Page, field: Locator): Promise<string | undefined> {
  if ((await field.getAttribute('aria-invalid')) !== 'true') return undefined;
  const id = (await field.getAttribute('aria-describedby'))?.split(' ').find((d) => d.endsWith('-problem'));
  return id ? ((await page.locator(`[id="${id}"]`).textContent()) ?? undefined) : undefined;
}

/** No secret is anywhere in the page: not in its HTML nor in any field's value. */
async function expectNoSecrets(page: Page, secrets: string[]): Promise<void> {
  const html = await page.content();
  const values = await page
    .locator('input, textarea')
    .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
  for (const s of secrets) {
    const line = s.split('\n').find((l) => l.length > 20 && !l.startsWith('-----')) ?? s;
    expect(html).not.toContain(line);
    expect(values.some((v) => v.includes(line))).toBe(false);
  }
}

/** The account signed in on the webhooks page, its New webhook form open. */
async function newWebhookForm(account: Account) {
  const cp = await h.signIn(account, '/console/webhooks');
  const { page } = cp;
  await page.getByRole('button', { name: 'New webhook' }).click();
  return { cp, page, form: page.getByRole('form', { name: 'New webhook' }) };
}

describe('delivery settings', () => {
  it('when a tenant creates a webhook with every delivery setting, then the API stores them and the page shows the secrets only as set', async () => {
    const account = await h.account();
    const { cp, page, form } = await newWebhookForm(account);
    await fillIn(form, {
      Event: 'cdrCreated',
      Resource: 'all',
      'Target URL': 'https://example.com/cdr',
      Name: 'CDRs with settings',
      'Timeout per attempt (ms)': '5000',
      'Ordering key': 'sessionId',
      'Longest hold (seconds)': '600',
      'Rate limit (deliveries per second)': '20',
      Authentication: 'oauth2_client_credentials',
      'Token URL': 'https://auth.example.com/token',
      'Client ID': 'switchboard',
      'Client secret': 's3cret-client-value-0123456789',
      Scope: 'events:write',
    });
    await form.getByLabel('mTLS: present a certificate to the receiver').check();
    await form.getByLabel('Client certificate').fill(pem.cert);
    await form.getByLabel('Private key').fill(pem.key);
    await checkPage(cp, 'webhook-new-settings');
    await form.screenshot({ path: `${SCREENSHOTS}webhook-new-settings-form-1280.png` });
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('heading', { name: 'CDRs with settings' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    expect(await webhookOf(account, id)).toMatchObject({
      timeoutMs: 5000,
      ordering: { key: 'sessionId', maxHoldSeconds: 600 },
      rateLimit: { perSecond: 20 },
      auth: {
        type: 'oauth2_client_credentials',
        tokenUrl: 'https://auth.example.com/token',
        clientId: 'switchboard',
        clientSecret: '***',
        scope: 'events:write',
      },
      tls: { clientCertificate: pem.cert.trim(), privateKey: '***' },
    });
    // The page lists them; the secrets are "set", never shown.
    const settings = page.getByRole('region', { name: 'Delivery settings' });
    const listed: [string, string][] = [
      ['Timeout per attempt', '5,000 ms'],
      ['Ordering', 'by sessionId, held at most 600 s'],
      ['Rate limit', '20 per second'],
      ['OAuth2', 'switchboard at https://auth.example.com/token (events:write); client secret set'],
      ['Client certificate', 'Set, with its private key'],
    ];
    for (const [term, value] of listed)
      await settings
        .locator('.prop')
        .filter({ has: page.getByRole('term').getByText(term, { exact: true }) })
        .getByText(value, { exact: true })
        .waitFor();
    await settings.getByRole('button', { name: 'Edit delivery settings' }).click();
    const edit = page.getByRole('form', { name: 'Edit delivery settings' });
    await edit.getByRole('button', { name: 'Replace client secret' }).waitFor();
    await edit.getByRole('button', { name: 'Replace private key' }).waitFor();
    await expectNoSecrets(page, ['s3cret-client-value-0123456789', pem.key]);
    await checkPage(cp, 'webhook-edit-settings');
    await edit.screenshot({ path: `${SCREENSHOTS}webhook-edit-settings-form-1280.png` });
    expectClean(cp);
  });

  it('when a setting breaks its rule, then the API problem is shown beside that field and nothing is created', async () => {
    const account = await h.account();
    const { cp, page, form } = await newWebhookForm(account);
    await fillIn(form, {
      Event: 'cdrCreated',
      'Target URL': 'https://example.com/cdr',
      'Rate limit (deliveries per second)': '5000',
      Authentication: 'oauth2_client_credentials',
      'Token URL': 'ftp://auth.example.com/token',
      'Client ID': 'switchboard',
      'Client secret': 'another-secret',
    });
    await form.getByLabel('mTLS: present a certificate to the receiver').check();
    await form.getByLabel('Client certificate').fill(pem.cert);
    await form.getByLabel('Private key').fill(pem.otherKey);
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await expect
      .poll(() => problemOf(page, form.getByLabel('Rate limit (deliveries per second)')))
      .toBe('must be an integer from 1 to 1000');
    expect(await problemOf(page, form.getByLabel('Token URL'))).toMatch(/\S/);
    expect(await problemOf(page, form.getByLabel('Private key'))).toBe('does not belong to tls.clientCertificate');
    // Fields without a problem are not marked; no alert repeats what the fields say.
    expect(await problemOf(page, form.getByLabel('Client ID'))).toBeUndefined();
    expect(await page.locator('[role="alert"].alert').count()).toBe(0);
    await checkPage(cp, 'webhook-new-settings-problems');
    expect(await h.read(account, '/v1/webhooks')).toEqual([]);
    expectClean(cp, [/status of 400/]);
  });

  it('when a tenant edits the settings, then a changed OAuth2 setting asks for its secret again, a replaced secret is stored, and an emptied setting is removed', async () => {
    const account = await h.account();
    const id = await h.create(account, '/v1/webhooks', {
      name: 'Edit my settings',
      event: 'cdrCreated',
      resource: 'all',
      targetUrl: 'https://example.com/cdr',
      rateLimit: { perSecond: 10 },
      auth: {
        type: 'oauth2_client_credentials',
        tokenUrl: 'https://auth.example.com/token',
        clientId: 'first',
        clientSecret: 'first-secret-value',
      },
    });
    const cp = await h.signIn(account, `/console/webhooks/${id}`);
    const { page } = cp;
    await page.getByRole('button', { name: 'Edit delivery settings' }).click();
    const edit = page.getByRole('form', { name: 'Edit delivery settings' });
    // Saving untouched settings changes nothing (the saved secret is kept).
    await edit.getByRole('button', { name: 'Save settings' }).click();
    await edit.waitFor({ state: 'detached' });
    expect(await webhookOf(account, id)).toMatchObject({ rateLimit: { perSecond: 10 }, auth: { clientId: 'first' } });

    await page.getByRole('button', { name: 'Edit delivery settings' }).click();
    await edit.getByLabel('Client ID').fill('second');
    await edit.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(() => edit.locator('.problem').allTextContents())
      .toEqual(['type the client secret again to change the OAuth2 settings']);
    await edit.getByRole('button', { name: 'Replace client secret' }).click();
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("type")')).toBe('password');
    await fillIn(edit, {
      'Client secret': 'second-secret-value',
      'Rate limit (deliveries per second)': '',
      'Timeout per attempt (ms)': '2500',
    });
    await edit.getByRole('button', { name: 'Save settings' }).click();
    await edit.waitFor({ state: 'detached' });
    const saved = await webhookOf(account, id);
    expect(saved).toMatchObject({
      timeoutMs: 2500,
      auth: { clientId: 'second', clientSecret: '***', tokenUrl: 'https://auth.example.com/token' },
    });
    expect(saved.rateLimit).toBeUndefined();

    // Authentication None removes it; an emptied timeout goes back to the platform's default.
    await page.getByRole('button', { name: 'Edit delivery settings' }).click();
    await edit.getByLabel('Authentication').selectOption('');
    await fillIn(edit, { 'Timeout per attempt (ms)': '' });
    await edit.getByRole('button', { name: 'Save settings' }).click();
    await edit.waitFor({ state: 'detached' });
    const reset = await webhookOf(account, id);
    expect(reset.auth).toBeUndefined();
    expect(reset.timeoutMs).toBeUndefined();
    await expectNoSecrets(page, ['first-secret-value', 'second-secret-value']);
    expectClean(cp);
  });
});

describe('replay', () => {
  it('when deliveries of three sessions failed, then a replay filtered by two session ids is counted, sent and followed, and a running one can be cancelled', async () => {
    const account = await h.account();
    const path = `/console/${randomUUID()}`;
    // 422 fails a delivery without opening the host's circuit breaker (5xx would, past 10 attempts).
    let answer: 'refuse' | 'accept' | 'hang' = 'refuse';
    receiver().on(path, () => (answer === 'refuse' ? 422 : answer === 'accept' ? 200 : 'hang'));
    const id = await h.create(account, '/v1/webhooks', {
      name: 'Replay me',
      event: 'cdrCreated',
      resource: 'all',
      targetUrl: receiver().url(path),
      timeoutMs: 5000,
    });
    const since = new Date(Date.now() - 60_000);
    const sessions = [`ses-a-${randomUUID()}`, `ses-b-${randomUUID()}`, `ses-c-${randomUUID()}`];
    let n = 0;
    for (const sessionId of sessions)
      for (let k = 0; k < 2; k++)
        await h.publish('cdr.created', {
          id: `evt-${randomUUID()}`,
          accountId: account.id,
          resource: 'call',
          timestamp: new Date().toISOString(),
          data: { n: ++n, sessionId },
        });
    const failed = async () => {
      const list = (await (
        await h.request(account, 'GET', `/v1/webhooks/${id}/deliveries?outcome=failed&limit=100`)
      ).json()) as { messageId: string }[];
      return new Set(list.map((d) => d.messageId)).size;
    };
    await expect.poll(failed, { timeout: 30_000 }).toBe(6);

    const cp = await h.signIn(account, `/console/webhooks/${id}`);
    const { page } = cp;
    const panel = page.getByRole('region', { name: 'Replay' });
    const p = (x: number) => String(x).padStart(2, '0');
    const local = (d: Date) =>
      `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    // Count without a start: the problem is beside "Failed since".
    await panel.getByRole('button', { name: 'Count' }).click();
    await expect
      .poll(() => problemOf(page, panel.getByLabel('Failed since')))
      .toBe('is required: the start of the window');
    await panel.getByLabel('Failed since').fill(local(since));
    // A bad status from the API, beside its field.
    await panel.getByLabel('Status from').fill('700');
    await panel.getByRole('button', { name: 'Count' }).click();
    await expect
      .poll(() => problemOf(page, panel.getByLabel('Status from')))
      .toBe('must be an HTTP status from 100 to 599');
    await panel.getByLabel('Status from').fill('400');
    await panel.getByLabel('Status to').fill('499');
    await panel.getByLabel('Session ids').fill(`${sessions[0]}\n${sessions[2]}`);
    await panel.getByRole('button', { name: 'Count' }).click();
    const counted = panel.getByRole('status').filter({ hasText: /match/ });
    await expect.poll(() => counted.textContent()).toBe('4 deliveries match.');
    expect(await problemOf(page, panel.getByLabel('Status from'))).toBeUndefined();
    // The count sent nothing.
    const before = receiver().at(path).length;
    expect(before).toBe(12);

    answer = 'accept';
    await panel.getByRole('button', { name: 'Replay', exact: true }).click();
    const progress = panel.getByRole('status').filter({ hasText: /^Replay/ });
    await expect
      .poll(() => progress.textContent(), { timeout: 20_000 })
      .toBe('Replay completed: 4 of 4 deliveries sent, 0 failed again, 0 skipped (body no longer kept).');
    const resent = receiver().at(path).slice(before);
    expect(resent.map((r) => (r.body as { data: { n: number } }).data.n).sort()).toEqual([1, 2, 5, 6]);
    expect(await panel.getByRole('button', { name: 'Cancel replay' }).count()).toBe(0);
    await checkPage(cp, 'webhook-replay');
    await panel.screenshot({ path: `${SCREENSHOTS}webhook-replay-panel-1280.png` });

    // The receiver now hangs: the replay of the other session runs until cancelled.
    answer = 'hang';
    await panel.getByLabel('Session ids').fill(sessions[1]!);
    await panel.getByLabel('Status from').fill('');
    await panel.getByLabel('Status to').fill('');
    await panel.getByRole('button', { name: 'Replay', exact: true }).click();
    await expect
      .poll(() => progress.textContent(), { timeout: 10_000 })
      .toMatch(/^Replay running: 0 of 2 deliveries sent/);
    await panel.getByRole('progressbar', { name: 'Replay progress' }).waitFor();
    await panel.screenshot({ path: `${SCREENSHOTS}webhook-replay-running-1280.png` });
    await panel.getByRole('button', { name: 'Cancel replay' }).click();
    await expect.poll(() => progress.textContent(), { timeout: 10_000 }).toMatch(/^Replay cancelled:/);
    expect(await panel.getByRole('button', { name: 'Cancel replay' }).count()).toBe(0);
    answer = 'accept';
    expectClean(cp, [/status of 400/]);
  });
});
