// The console as the gateway serves it, from a console build in a temporary folder (CONSOLE_DIR):
// caching of hashed assets and of index.html, the deep-link fallback, the Content-Security-Policy,
// `/` for browsers and for API clients, and no Basic challenge on the console's own fetches.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startServices, type Services } from '../../../test/support';
import { consoleSignIn } from './harness';
import { DEFAULT_CONSOLE_DIR } from '../src/http/console-app';

let stack: Services<{ gateway: true }>;
const INDEX =
  '<!doctype html><title>console</title><script type="module" src="/console/assets/index-abc123.js"></script>';

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  stack = await startServices({ gateway: true, env: { CONSOLE_DIR: dir } });
});
afterAll(async () => stack?.stop());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.baseUrl}${path}`, { headers, redirect: 'manual' });

describe('the console under /console/', () => {
  it('when index.html is fetched, then it is revalidated on every load and carries a CSP with no inline script and no other origin', async () => {
    const res = await get('/console/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(INDEX);
    const csp = res.headers.get('content-security-policy')!;
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
  });

  it('when a hashed asset is fetched, then it is cacheable for a year and immutable', async () => {
    const res = await get('/console/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toBeTruthy();
  });

  it('when the browser accepts Brotli or gzip, then the asset comes compressed that way', async () => {
    for (const encoding of ['br', 'gzip']) {
      const res = await get('/console/assets/index-abc123.js', { 'accept-encoding': encoding });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(await res.text()).toBe('console.log(1)');
    }
  });

  it('when an asset does not exist, then it is a 404 problem, not the page', async () => {
    const res = await get('/console/assets/index-gone.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('when a deep link of the console is opened, then index.html answers it (the app routes it)', async () => {
    for (const path of [
      '/console/applications',
      '/console/applications/5f0c3d8e9a1b2c3d4e5f6a7b',
      '/console/sign-in?next=%2Fapi-keys',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('when /console is asked for without the slash, then it redirects to /console/', async () => {
    const res = await get('/console');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/console/');
  });
});

it("when CONSOLE_DIR is not set, then the gateway serves the repository's console/dist (the image's /app/console/dist)", () => {
  expect(DEFAULT_CONSOLE_DIR).toBe(fileURLToPath(new URL('../../../console/dist/', import.meta.url)));
});

describe('the root path', () => {
  it('when a browser asks for / (text/html), then it is sent to /console/', async () => {
    const res = await get('/', { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/console/');
  });

  it('when an API client asks for / (JSON, or anything), then it is the 404 problem it always was', async () => {
    for (const accept of ['application/json', '*/*', undefined]) {
      const res = await get('/', accept ? { accept } : {});
      expect(res.status, String(accept)).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    }
  });
});

describe("the browser's session (GET /v1/console/session)", () => {
  it('when there is no cookie, or its session ended, then it is 204; while signed in, then it is the user and the end of the session', async () => {
    expect((await get('/v1/console/session')).status).toBe(204);
    const account = await stack.createAccount('console');
    const { res: signIn, cookie } = await consoleSignIn(stack, account, { origin: stack.baseUrl });
    expect(signIn.status).toBe(200);
    const res = await get('/v1/console/session', { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { user: { username: string }; expiresAt: string };
    expect(body.user.username).toBe(account.username);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    const out = await fetch(`${stack.baseUrl}/v1/console/session`, {
      method: 'DELETE',
      headers: { cookie, origin: stack.baseUrl },
    });
    expect(out.status).toBe(204);
    expect((await get('/v1/console/session', { cookie })).status).toBe(204);
    expect((await get('/v1/console/session', { cookie: '__Host-sb_session=not-a-token' })).status).toBe(204);
  });
});

describe('a 401 of the API', () => {
  it("when the console's own fetch has no session, then the 401 has no Basic challenge (no password dialog); curl's still has it", async () => {
    const fromPage = await get('/v1/applications', { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' });
    expect(fromPage.status).toBe(401);
    expect(fromPage.headers.get('www-authenticate')).toBeNull();
    const plain = await get('/v1/applications');
    expect(plain.status).toBe(401);
    expect(plain.headers.get('www-authenticate')).toBe('Basic realm="switchboard"');
  });
});
