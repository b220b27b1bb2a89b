import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM } from '../../test/support/chromium.ts';
import { ensureConsoleBuilt } from '../../test/support/console-build.ts';
import { startServices, type Services } from '../../test/support/index.ts';

const CONSOLE = fileURLToPath(new URL('..', import.meta.url));
const _ROOT = fileURLToPath(new URL('../..', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    console: { baseUrl: string; wsEndpoint: string; control: string };
  }
}

type Stack = Services<{ gateway: true; webhooks: true; dispatcher: true }>;

/** The control server's routes: POST /accounts, POST /numbers {prefix?}, POST /publish {subject, body}. */
async function control(stack: Stack, req: { url?: string; method?: string }, body: unknown): Promise<unknown> {
  if (req.url === '/accounts') return stack.createAccount('console');
  if (req.url === '/numbers') {
    const { addNumbers } = await import('@switchboard/applications/numbers');
    const { numbers, city, state } = body as { numbers: string[]; city?: string; state?: string };
    await addNumbers(stack.applications.app.orm.em.fork(), numbers, {
      ...(city ? { city } : {}),
      ...(state ? { state } : {}),
      country: 'US',
      smsEnabled: true,
    });
    return { added: numbers.length };
  }
  if (req.url === '/publish') {
    const { subject, body: message } = body as { subject: string; body: unknown };
    return { seq: await stack.publish(subject, message) };
  }
  throw new Error(`no control route ${req.method} ${req.url}`);
}

export default async function setup(project: TestProject) {
  ensureConsoleBuilt();
  process.env.PASSWORD_SCRYPT_N ??= String(2 ** 14);
  let stack: Stack | undefined;
  let browser: BrowserServer | undefined;
  let server: Server | undefined;
  const teardown = async () => {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await browser?.close();
    await stack?.stop();
  };
  try {
    [stack, browser] = await Promise.all([
      startServices({
        gateway: true,
        webhooks: true,
        dispatcher: true,
        env: { CONSOLE_DIR: `${CONSOLE}/dist`, DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128' },
        // One retry a second later: a delivery a receiver refuses ends failed within the test (Replay).
        dispatcherEnv: { DELIVERY_RETRY_SCHEDULE: '1s' },
      }),
      chromium.launchServer(CHROMIUM),
    ]);
    const s = stack;
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c));
      req.on('end', () => {
        control(s, req, raw ? JSON.parse(raw) : undefined).then(
          (out) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out)),
          (err: Error) => res.writeHead(500).end(err.message),
        );
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    project.provide('console', {
      baseUrl: stack.baseUrl,
      wsEndpoint: browser.wsEndpoint(),
      control: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
