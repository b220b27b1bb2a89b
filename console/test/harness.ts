// What every console test file uses: the suite's Chromium and stack (test/global-setup.ts), pages
// that record every request to another origin and every console error, the sign-in, axe on a page
// and its screenshots at 1280 and 375 px wide (in test-results/screenshots/).
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { type Receiver, startReceiver } from '../../test/support/index.ts';

export const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Account {
  id: string;
  username: string;
  password: string;
  authorization: string;
}

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  /** Requests the page made to any origin but the gateway's. */
  foreign: string[];
  /** Console errors and uncaught exceptions of the page. */
  errors: string[];
}

export interface Harness {
  baseUrl: string;
  browser(): Browser;
  /** A new account (the applications service's own account creation). */
  account(): Promise<Account>;
  /** Adds numbers to the inventory. */
  addNumbers(numbers: string[], where?: { city?: string; state?: string }): Promise<void>;
  /** Publishes a message on the stack's JetStream. */
  publish(subject: string, body: unknown): Promise<void>;
  /** A fresh browser context (no cookies) at 1280 px, its page watched. */
  open(path?: string): Promise<ConsolePage>;
  /** Opens the console and signs in through the form; answers on the applications page. */
  signIn(account: Account, path?: string): Promise<ConsolePage>;
  /** A new account signed in at `path` (account, then signIn): the account, the watched page and its Page. */
  signedIn(path?: string): Promise<{ account: Account; cp: ConsolePage; page: Page }>;
  /** Fetch against the API with the account's password (for setting data up). */
  request(account: Account, method: string, path: string, body?: unknown): Promise<Response>;
  /** GETs `path` as the account by the API: the answer's JSON body. */
  read(account: Account, path: string): Promise<unknown>;
  /** Creates a resource of the account by the API (POST `path` with `body`); answers its id (its href's last segment). */
  create(account: Account, path: string, body: unknown): Promise<string>;
  /** A new application of the account (`fields`: its name and URLs) and a voice token of it, by the API. */
  voiceApplication(account: Account, fields: Record<string, string>): Promise<{ appId: string; token: string }>;
  /** Launches a session with a token (the Session API, no credentials); answers its id. */
  launch(token: string, params?: Record<string, string>): Promise<string>;
}

/** A receiver route's answer (for `receiver().on`): `status` with a `body` of this Content-Type. */
export const answer = (status: number, contentType: string, body: string) => () => ({
  status,
  headers: { 'content-type': contentType },
  body,
});

/** A receiver on loopback for the tests of a file: started before them, closed after; the getter answers it. */
export function loopbackReceiver(): () => Receiver {
  let rx: Receiver | undefined;
  beforeAll(async () => {
    rx = await startReceiver();
  });
  afterAll(async () => {
    await rx?.close();
  });
  return () => rx!;
}

export function consoleHarness(): Harness {
  const { baseUrl, wsEndpoint, control } = inject('console');
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await chromium.connect(wsEndpoint);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
  });
  const ask = async (path: string, body?: unknown) => {
    const res = await fetch(`${control}${path}`, { method: 'POST', body: JSON.stringify(body ?? {}) });
    if (!res.ok) throw new Error(`control ${path}: ${await res.text()}`);
    return res.json();
  };
  const h: Harness = {
    baseUrl,
    browser: () => browser!,
    account: () => ask('/accounts') as Promise<Account>,
    async addNumbers(numbers, where = {}) {
      await ask('/numbers', { numbers, ...where });
    },
    async publish(subject, body) {
      await ask('/publish', { subject, body });
    },
    async open(path = '/console/') {
      const context = await browser!.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
      contexts.push(context);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
      const page = await context.newPage();
      // Shorter than the test's timeout, so a failing wait names its locator.
      page.setDefaultTimeout(15_000);
      const watched: ConsolePage = { page, context, foreign: [], errors: [] };
      page.on('request', (r) => {
        const url = r.url();
        if (!url.startsWith(`${baseUrl}/`) && !url.startsWith('data:')) watched.foreign.push(url);
      });
      page.on('console', (m) => {
        if (m.type() === 'error') watched.errors.push(m.text());
      });
      page.on('pageerror', (e) => watched.errors.push(e.message));
      await page.goto(path);
      return watched;
    },
    async signIn(account, path = '/console/') {
      const cp = await h.open(path);
      await cp.page.getByLabel('Username').fill(account.username);
      await cp.page.getByLabel('Password').fill(account.password);
      await cp.page.getByRole('button', { name: 'Sign in' }).click();
      await cp.page.getByRole('navigation', { name: 'Main' }).waitFor();
      return cp;
    },
    async signedIn(path) {
      const account = await h.account();
      const cp = await h.signIn(account, path);
      return { account, cp, page: cp.page };
    },
    request(account, method, path, body) {
      return fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: account.authorization,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    },
    async read(account, path) {
      return (await h.request(account, 'GET', path)).json();
    },
    async create(account, path, body) {
      const res = await h.request(account, 'POST', path, body);
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      return ((await res.json()) as { href: string }).href.split('/').pop()!;
    },
    async voiceApplication(account, fields) {
      const appId = await h.create(account, '/v1/applications', fields);
      const token = await h.create(account, `/v1/applications/${appId}/addresses`, { type: 'token', channel: 'voice' });
      return { appId, token };
    },
    async launch(token, params = {}) {
      const res = await fetch(`${baseUrl}/v1/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ token, ...params }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { id: string }).id;
    },
  };
  return h;
}

/** Turns a list's pager by its Next or Previous button, until the pager shows `shown` (e.g. `Page 2`). */
export async function turnPage(pager: Locator, button: 'Next' | 'Previous', shown: string): Promise<void> {
  await pager.getByRole('button', { name: button }).click();
  await pager.getByText(shown).waitFor();
}

/** Fills a form's fields by their labels, in order: a select chooses the value, any other field is typed into. */
export async function fillIn(form: Locator, values: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(values)) {
    const field = form.getByLabel(label);
    if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
}

/** Axe's serious and critical violations of the page as it is now, as readable lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
  const result = (await page.evaluate('window.axe.run(document, { resultTypes: ["violations"] })')) as {
    violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * The checks every page gets: no serious or critical axe violation at 1280 and at 375 px, no
 * horizontal scrolling of the page at either, and a screenshot at each width (`name`-1280.png,
 * `name`-375.png).
 */
export async function checkPage(cp: ConsolePage, name: string): Promise<void> {
  const { page } = cp;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    expect(await axeViolations(page), `axe at ${width} px on ${name}`).toEqual([]);
    const overflow = (await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    )) as number;
    expect(overflow, `horizontal overflow at ${width} px on ${name}`).toBeLessThanOrEqual(0);
    // The whole page, cut at 1,800 px (a list of 50 cards at 375 px is several times that).
    const height = Math.min(1800, (await page.evaluate('document.documentElement.scrollHeight')) as number);
    await page.screenshot({
      path: `${SCREENSHOTS}${name}-${width}.png`,
      fullPage: true,
      clip: { x: 0, y: 0, width, height },
    });
  }
  await page.setViewportSize(original);
}

/** No request left for another origin and nothing logged as an error, but the `allowed` lines. */
export function expectClean(cp: ConsolePage, allowed: RegExp[] = []): void {
  expect(cp.foreign, 'requests to other origins').toEqual([]);
  expect(
    cp.errors.filter((e) => !allowed.some((a) => a.test(e))),
    'console errors',
  ).toEqual([]);
}
