import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM } from '../test/support/chromium';
import { ensureConsoleBuilt } from '../test/support/console-build';
import { createBenchAccount, fmt, percentile, startBenchStack, table } from './lib';

interface Timing {
  /** To the first rows drawn. */
  firstMedianMs: number;
  firstP95Ms: number;
  /** To the whole list loaded. */
  medianMs: number;
  p95Ms: number;
}

export interface PickerTiming {
  /** Navigation to Sessions showing the chosen application in the picker. */
  readyMedianMs: number;
  /** From typing a whole name to its option, the first time (every page of applications loaded first). */
  firstSearchMedianMs: number;
  /** The same, the applications already loaded. */
  searchMedianMs: number;
  searchP95Ms: number;
  /** The most options drawn (the list opened on every application). */
  optionsDrawn: number;
}

export interface ConsoleBenchRow {
  applications: number;
  cold: Timing;
  warm: Timing;
  /** Bytes the browser received on a cold load (encoded, as sent). */
  coldBytes: number;
  picker: PickerTiming;
}

async function seed(base: string, authorization: string, n: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const res = await fetch(`${base}/v1/applications`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `App ${i}`, voiceUrl: `https://example.com/${i}/voice.json` }),
      });
      if (res.status !== 200) throw new Error(`creating application ${i}: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** One load of the list: ms from the navigation's start to the list's count in the page, and bytes received. */
/**
 * The session cookie for the browser context: a `__Host-` cookie must be Secure with Path=/ and no
 * Domain attribute, which a host-only cookie of the gateway's host is (loopback counts as secure).
 */
function sessionCookie(cookie: { name: string; value: string }, base: string) {
  return { ...cookie, domain: new URL(base).hostname, path: '/', secure: true };
}

async function loadOnce(
  browser: Browser,
  base: string,
  cookie: { name: string; value: string },
  n: number,
  context?: Awaited<ReturnType<Browser['newContext']>>,
) {
  const ctx = context ?? (await browser.newContext());
  if (!context) await ctx.addCookies([sessionCookie(cookie, base)]);
  const page = await ctx.newPage();
  let bytes = 0;
  page.on('requestfinished', async (r) => {
    const s = await r.sizes().catch(() => undefined);
    if (s) bytes += s.responseBodySize + s.responseHeadersSize;
  });
  await page.goto(`${base}/console/applications`, { waitUntil: 'commit' });
  await page.locator('tbody tr').first().waitFor({ timeout: 60_000 });
  const firstMs = (await page.evaluate('performance.now()')) as number;
  await page
    .getByText(`${n} applications`, { exact: true })
    .waitFor({ timeout: 60_000 })
    .catch(async (err: Error) => {
      throw new Error(`${err.message}\npage ${page.url()}:\n${await page.locator('body').textContent()}`);
    });
  const ms = (await page.evaluate('performance.now()')) as number;
  // However long the list, one page of it is in the document.
  const rows = await page.locator('tbody tr').count();
  if (rows !== Math.min(n, 50)) throw new Error(`${rows} rows drawn for ${n} applications`);
  await page.close();
  return { firstMs, ms, bytes, ctx };
}

/** One use of the picker on Sessions in a new context: ready, first search, then `searches` more. */
async function pickerOnce(
  browser: Browser,
  base: string,
  cookie: { name: string; value: string },
  n: number,
  searches: number,
) {
  const ctx = await browser.newContext();
  await ctx.addCookies([sessionCookie(cookie, base)]);
  const page = await ctx.newPage();
  const picker = page.getByRole('combobox', { name: 'Application', exact: true });
  const options = page.getByRole('listbox', { name: 'Matches' }).getByRole('option');
  await page.goto(`${base}/console/sessions`, { waitUntil: 'commit' });
  await page.getByRole('heading', { name: /^Sessions of App / }).waitFor({ timeout: 60_000 });
  const readyMs = (await page.evaluate('performance.now()')) as number;
  await picker.focus();
  await picker.press('ArrowDown');
  await options.first().waitFor();
  const optionsDrawn = await options.count();
  // A whole name: one option (numbers in names make "App 12" also match "App 120").
  const search = async (i: number) => {
    const name = `App ${i}`;
    await picker.press('Control+a');
    const start = Date.now();
    await picker.fill(name);
    await page.getByText('1 application matches.', { exact: true }).waitFor({ timeout: 60_000 });
    const ms = Date.now() - start;
    if ((await options.count()) !== 1 || !(await options.first().textContent())?.startsWith(name))
      throw new Error(`searching ${name}: not the one option`);
    return ms;
  };
  const firstSearchMs = await search(n - 1);
  const searchMs: number[] = [];
  for (let s = 0; s < searches; s++) searchMs.push(await search(Math.floor(((s + 1) * n) / (searches + 1))));
  await ctx.close();
  return { readyMs, firstSearchMs, searchMs, optionsDrawn };
}

function timing(samples: { firstMs: number; ms: number }[]): Timing {
  const first = samples.map((x) => x.firstMs).sort((a, b) => a - b);
  const all = samples.map((x) => x.ms).sort((a, b) => a - b);
  return {
    firstMedianMs: percentile(first, 50),
    firstP95Ms: percentile(first, 95),
    medianMs: percentile(all, 50),
    p95Ms: percentile(all, 95),
  };
}

export async function runConsoleBench(opts: { samples: number; sizes: number[] }): Promise<ConsoleBenchRow[]> {
  ensureConsoleBuilt();
  const stack = await startBenchStack({ baseline: false });
  const browser = await chromium.launch(CHROMIUM);
  try {
    // PUBLIC_BASE_URL is the gateway's default, http://localhost:PORT: the sign-in's Origin must match it.
    const base = `http://localhost:${stack.gatewayPort}`;
    const rows: ConsoleBenchRow[] = [];
    for (const [i, n] of opts.sizes.entries()) {
      const username = `console${i}`;
      createBenchAccount(stack.env, username);
      const authorization = `Basic ${Buffer.from(`${username}:bench-password`).toString('base64')}`;
      await seed(base, authorization, n);
      const signIn = await fetch(`${base}/v1/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ username, password: 'bench-password' }),
      });
      if (signIn.status !== 200) throw new Error(`signing in: ${signIn.status} ${await signIn.text()}`);
      const [name, value] = signIn.headers.get('set-cookie')!.split(';')[0]!.split('=');
      const cookie = { name: name!, value: value! };
      // One load of each kind first, not counted (the gateway's and Postgres's first queries).
      const first = await loadOnce(browser, base, cookie, n);
      await loadOnce(browser, base, cookie, n, first.ctx);
      await first.ctx.close();
      const cold: { firstMs: number; ms: number }[] = [];
      const warm: { firstMs: number; ms: number }[] = [];
      let coldBytes = 0;
      for (let s = 0; s < opts.samples; s++) {
        const c = await loadOnce(browser, base, cookie, n);
        cold.push(c);
        coldBytes = c.bytes;
        warm.push(await loadOnce(browser, base, cookie, n, c.ctx));
        await c.ctx.close();
      }
      await pickerOnce(browser, base, cookie, n, 1);
      const uses = [];
      for (let s = 0; s < opts.samples; s++) uses.push(await pickerOnce(browser, base, cookie, n, 5));
      const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
      const searches = sorted(uses.flatMap((u) => u.searchMs));
      const picker: PickerTiming = {
        readyMedianMs: percentile(sorted(uses.map((u) => u.readyMs)), 50),
        firstSearchMedianMs: percentile(sorted(uses.map((u) => u.firstSearchMs)), 50),
        searchMedianMs: percentile(searches, 50),
        searchP95Ms: percentile(searches, 95),
        optionsDrawn: Math.max(...uses.map((u) => u.optionsDrawn)),
      };
      if (picker.optionsDrawn > 50) throw new Error(`the picker drew ${picker.optionsDrawn} options`);
      rows.push({ applications: n, cold: timing(cold), warm: timing(warm), coldBytes, picker });
    }
    return rows;
  } finally {
    await browser.close();
    await stack.stop();
  }
}

export function printConsoleResults(rows: ConsoleBenchRow[]): string {
  return [
    'Console: navigation to the applications list (first rows / whole list), signed in, loopback, headless Chromium',
    table([
      ['applications', 'cache', 'first rows median', 'p95', 'whole list median', 'p95', 'bytes received'],
      ...rows.flatMap((r) =>
        (['cold', 'warm'] as const).map((c) => [
          fmt(r.applications),
          c,
          `${fmt(r[c].firstMedianMs)} ms`,
          `${fmt(r[c].firstP95Ms)} ms`,
          `${fmt(r[c].medianMs)} ms`,
          `${fmt(r[c].p95Ms)} ms`,
          c === 'cold' ? `${fmt(r.coldBytes / 1024, 1)} KB` : '',
        ]),
      ),
    ]),
    '',
    'Console: the application picker on Sessions (a new context each time), loopback, headless Chromium',
    table([
      ['applications', 'ready median', 'first search median', 'search median', 'p95', 'options drawn'],
      ...rows.map((r) => [
        fmt(r.applications),
        `${fmt(r.picker.readyMedianMs)} ms`,
        `${fmt(r.picker.firstSearchMedianMs)} ms`,
        `${fmt(r.picker.searchMedianMs)} ms`,
        `${fmt(r.picker.searchP95Ms)} ms`,
        fmt(r.picker.optionsDrawn),
      ]),
    ]),
  ].join('\n');
}
