import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { CHROMIUM, checkResponse, SESSION_KEYS, startServices, type Services } from '../../../test/support';
import { fullTextSessionEvent } from '../../../test/support/session-body';
import { ERROR_CODES } from '@switchboard/errors';
import { LIST_MAX } from '@switchboard/contracts';
import * as limits from '../src/limits';
import { buildOpenApi } from '../src/openapi';
// The dispatcher's own body builders and signer: the documented webhooks must describe what it really sends.
import { buildNotificationBody, buildSessionBody } from '../../dispatcher/src/delivery/bodies';
import { generateSecret, secretKey, signatureHeaders } from '../../dispatcher/src/delivery/signing';
import {
  cdrEventSchema,
  sessionNewSchema,
  smsDlrEventSchema,
  webhookDisabledEventSchema,
} from '../../dispatcher/src/events/schemas';
// The services' own limits and defaults, which the gateway states (its image does not ship their code).
import { loadConfig as loadDispatcherConfig } from '../../dispatcher/src/config';
import { parseDuration, parseSchedule } from '../../dispatcher/src/delivery/retry';
import { NAME_MAX as APPLICATION_NAME_MAX } from '../../applications/src/applications/rules';
import { MAX_ACCOUNT_LEVEL, MAX_PER_APPLICATION } from '../../webhooks/src/subscriptions/repository';
import { PREVIOUS_SECRET_VALID_MS } from '../../webhooks/src/subscriptions/rotate-secret';
import { NAME_MAX as SUBSCRIPTION_NAME_MAX } from '../../webhooks/src/subscriptions/rules';
import * as sessionRules from '../../applications/src/sessions/rules';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
let stack: Services<{ gateway: true }>;

type Obj = Record<string, unknown>;
interface WebhookOperation {
  operationId: string;
  summary: string;
  description: string;
  security: unknown[];
  parameters: { $ref: string }[];
  requestBody: { required: boolean; content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { description: string; headers?: Obj }>;
}
interface Doc {
  openapi: string;
  info: { description: string };
  servers: { url: string }[];
  paths: Record<string, Obj>;
  webhooks: Record<string, { post: WebhookOperation }>;
  components: {
    schemas: Record<string, Obj>;
    parameters: Record<string, { name: string; in: string; required: boolean; schema: Obj; description: string }>;
  };
}

/** Follows a local `#/...` reference of the document. */
function deref<T>(doc: Doc, value: { $ref?: string } | T): T {
  const r = (value as { $ref?: string }).$ref;
  if (!r) return value as T;
  return r
    .slice(2)
    .split('/')
    .reduce<unknown>((o, k) => (o as Obj)[k], doc) as T;
}

/** A validator of a component schema, with the document's references resolvable. */
function schemaValidator(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components });
  return (name: string, value: unknown) => {
    const validate = ajv.getSchema(`doc#/components/schemas/${name}`)!;
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}

beforeAll(async () => {
  stack = await startServices({ gateway: true });
});
afterAll(async () => stack?.stop());

describe('the OpenAPI document', () => {
  it('when linted with redocly, then it has no errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-openapi-'));
    const file = join(dir, 'openapi.json');
    // A public-looking server URL: localhost would be the only warning (no-server-example.com).
    writeFileSync(file, JSON.stringify(buildOpenApi('https://switchboard.test'), null, 2));
    writeFileSync(
      join(dir, 'redocly.yaml'),
      'extends:\n  - recommended\nrules:\n  info-license-strict: off\n  operation-4xx-response: error\n',
    );
    const { stdout, stderr } = await run(
      join(root, 'node_modules/.bin/redocly'),
      ['lint', file, '--config', join(dir, 'redocly.yaml')],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((err: { stdout: string; stderr: string }) => {
      throw new Error(`redocly lint failed:\n${err.stdout}\n${err.stderr}`);
    });
    const out = `${stdout}${stderr}`;
    expect(out).toMatch(/valid/i);
    // No warnings either: examples that break their schema, unused components, bad config all warn.
    expect(out, out).not.toMatch(/You have \d+ warning|Your config has \d+ warning|Unused rules/);
  }, 60_000);

  it('when fetched from the gateway without credentials, then it is the document, with every path of the API', async () => {
    const res = await fetch(`${stack.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; servers: { url: string }[]; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]!.url).toBe(stack.baseUrl);
    for (const path of [
      '/v1/applications',
      '/v1/applications/{id}',
      '/v1/webhooks',
      '/v1/webhooks/{id}',
      '/v1/applications/{appId}/webhooks',
      '/v1/applications/{appId}/webhooks/{id}',
      '/v1/application/{appId}/webhooks/{id}',
      '/v1/webhooks/{id}/secret',
      '/v1/webhooks/{id}/secret/rotate',
      '/v1/webhooks/{id}/deliveries',
      '/v1/applications/{id}/deliveries',
      '/v1/applications/{id}/secret',
      '/v1/applications/{id}/secret/rotate',
      '/rest/v1/applications/{id}',
      '/rest/v1/applications/{id}/secret',
      '/rest/v1/environments/{id}',
      '/rest/v1/users/{id}',
      '/v1/environments/{id}',
      '/v1/users/{id}',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
  });

  it('when compared with the routes the gateway registers, then every route is documented under /v1 or /rest/v1, and the aliasing is stated', () => {
    const doc = buildOpenApi('http://localhost') as unknown as Doc;
    const shape = (p: string) => p.replace(/\{[^}]+\}/g, '{}').replace(/:[A-Za-z]+/g, '{}');
    const documented = new Set(Object.keys(doc.paths).map(shape));
    const httpDir = fileURLToPath(new URL('../src/http/', import.meta.url));
    // The Session API's router is mounted at /1.0/sessions, /v1/sessions and /rest/v1/sessions.
    const mountedAt: Record<string, string> = { 'sessions.ts': '/sessions' };
    const routes = readdirSync(httpDir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        // Paths registered with `route` and the paths of route declarations (http/declare.ts).
        [...readFileSync(join(httpDir, f), 'utf8').matchAll(/(?:route\(router, |\bpath: )'([^']+)'/g)].map((m) =>
          `${mountedAt[f] ?? ''}${m[1]!}`.replace(/(.)\/$/, '$1'),
        ),
      );
    expect(routes.length).toBeGreaterThanOrEqual(12);
    for (const r of routes) {
      expect(documented.has(shape(`/v1${r}`)) || documented.has(shape(`/rest/v1${r}`)), `route ${r}`).toBe(true);
    }
    expect(doc.info.description).toMatch(/every `\/v1\/` path below is also served under `\/rest\/v1\/`/);
  });

  it('when fetched, then its webhooks section describes the session POST and the smsdlr, cdrCreated, cdrRated, webhookDisabled, alert, sessionStatus, alertTriggered and usageTriggered notifications', async () => {
    const doc = (await (await fetch(`${stack.baseUrl}/openapi.json`)).json()) as Doc;
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'alert',
      'alertTriggered',
      'cdrCreated',
      'cdrRated',
      'session',
      'sessionStatus',
      'smsdlr',
      'usageTriggered',
      'webhookDisabled',
    ]);

    const bodyOf = (name: string) => {
      const op = doc.webhooks[name]!.post;
      expect(op.requestBody.required).toBe(true);
      return deref<{ required: string[]; properties: Record<string, Obj> }>(
        doc,
        op.requestBody.content['application/json']!.schema,
      );
    };
    const sessionRequest = bodyOf('session');
    expect(sessionRequest.required).toEqual(['session']);
    const session = deref<{ required: string[]; properties: Record<string, Obj> }>(
      doc,
      sessionRequest.properties.session as { $ref: string },
    );
    expect([...session.required].sort()).toEqual(SESSION_KEYS);
    expect(session.properties.accountId).toMatchObject({ type: 'string' });
    expect(session.properties.initialText).toMatchObject({ type: ['string', 'null'] });
    expect(session.properties.timestamp).toMatchObject({ type: 'string', format: 'date-time', pattern: 'Z$' });
    for (const side of ['from', 'to']) {
      const endpoint = deref<{ required: string[] }>(doc, session.properties[side] as { $ref: string });
      expect([...endpoint.required].sort(), side).toEqual(['channel', 'e164Id', 'id', 'name', 'network']);
    }

    for (const event of ['smsdlr', 'cdrCreated', 'cdrRated']) {
      const body = bodyOf(event);
      expect([...body.required].sort(), event).toEqual(
        ['accountId', 'applicationId', 'data', 'event', 'id', 'name', 'payload', 'resource', 'timestamp'].sort(),
      );
      expect(body.properties.event, event).toEqual({ type: 'string', const: event });
      for (const nullableField of ['name', 'applicationId', 'payload'])
        expect((body.properties[nullableField] as { type: string[] }).type, `${event}.${nullableField}`).toContain(
          'null',
        );
    }
    expect(bodyOf('smsdlr').properties.resource).toMatchObject({ enum: ['sms'] });

    for (const [name, { post: op }] of Object.entries(doc.webhooks)) {
      expect(op.operationId, name).toBeTruthy();
      expect(op.security, name).toEqual([]);
      const headers = op.parameters.map((p) =>
        deref<{ name: string; in: string; required: boolean; description: string; schema: { pattern: string } }>(
          doc,
          p,
        ),
      );
      expect(
        headers.map((h) => [h.name, h.in, h.required]),
        name,
      ).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      const signature = headers[2]!;
      expect(signature.description).toMatch(/HMAC-SHA256/);
      expect(signature.description).toMatch(/separated by spaces/);
      expect(new RegExp(signature.schema.pattern).test('v1,YWJj v1,ZGVm')).toBe(true);
      expect(headers[0]!.description).toMatch(/same on every retry/);
      expect(Object.keys(op.responses).sort(), name).toEqual(['2XX', '3XX', '410', 'default']);
      expect(op.responses.default!.headers, name).toHaveProperty(['Retry-After']);
      expect(op.responses['3XX']!.description).toMatch(/not followed/);
      expect(op.description, name).toMatch(/5 s, 5 m, 30 m, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h/);
      expect(op.description, name).toMatch(/jitter/);
      expect(op.description, name).toMatch(/Retry-After/);
      expect(op.description, name).toMatch(/410/);
    }
    expect(doc.webhooks.smsdlr!.post.responses['410']!.description).toMatch(/disabled/);
  });

  it('when the dispatcher builds and signs real bodies, then they match the documented webhook schemas and headers', () => {
    const doc = buildOpenApi('http://localhost') as unknown as Doc;
    const check = schemaValidator(doc);
    const received = new Date('2025-03-01T10:00:00.000Z');

    const sparse = sessionNewSchema.parse({
      applicationId: 'app1',
      session: { from: { id: '+14155550100', channel: 'VOICE', network: 'PSTN' } },
    });
    // Lower-case names, and fields the document does not know, as a carrier may send them.
    const full = sessionNewSchema.parse(
      fullTextSessionEvent({
        userType: 'human',
        from: { id: 'jsgoecke', name: 'Jason', channel: 'text', network: 'JABBER' },
        to: { id: 'bot@example.com', e164Id: 'bot@example.com', channel: 'TEXT', network: 'JABBER', extra: 1 },
        somethingNew: true,
      }),
    );
    const textOnly = sessionNewSchema.parse({ applicationId: 'app3', session: { initialText: 'hello' } });
    for (const ev of [sparse, full, textOnly]) {
      const body = JSON.parse(JSON.stringify(buildSessionBody(ev, '42', received))) as unknown;
      expect(check('SessionRequest', body), JSON.stringify(body)).toEqual([]);
    }
    expect(check('SessionRequest', { session: { id: null } })).not.toEqual([]);

    const sub = { name: null, payload: null };
    const named = { name: 'DLRs', payload: { team: 'billing' } };
    const cases: [string, string, unknown][] = [
      [
        'SmsdlrNotification',
        'smsdlr',
        smsDlrEventSchema.parse({
          id: 'e1',
          accountId: 7,
          timestamp: '2025-03-01T12:00:00+02:00',
          data: { status: 'delivered' },
        }),
      ],
      [
        'CdrCreatedNotification',
        'cdrCreated',
        cdrEventSchema.parse({
          id: 'e2',
          accountId: '7',
          applicationId: 'app1',
          resource: 'call',
          timestamp: '2025-03-01T12:00:00Z',
          data: { duration: 3 },
        }),
      ],
      [
        'CdrRatedNotification',
        'cdrRated',
        cdrEventSchema.parse({
          id: 'e3',
          accountId: '7',
          applicationId: '',
          resource: 'transcription',
          timestamp: '2025-03-01T12:00:00Z',
          data: {},
        }),
      ],
      [
        'WebhookDisabledNotification',
        'webhookDisabled',
        webhookDisabledEventSchema.parse({
          id: 'e4',
          accountId: '7',
          applicationId: null,
          resource: 'all',
          timestamp: '2025-03-01T12:00:00.000Z',
          data: {
            subscriptionId: 'wh_1',
            href: 'http://localhost:8080/v1/webhooks/wh_1',
            targetUrl: 'https://example.com/x',
            reason: 'target answered 410 Gone',
            disabledAt: '2025-03-01T12:00:00.000Z',
          },
        }),
      ],
    ];
    for (const [schema, event, ev] of cases) {
      for (const s of [sub, named]) {
        const body = JSON.parse(JSON.stringify(buildNotificationBody(event as 'smsdlr', ev as never, s))) as unknown;
        expect(check(schema, body), `${schema} ${JSON.stringify(body)}`).toEqual([]);
      }
    }
    expect(check('CdrRatedNotification', { ...(cases[2]![2] as Obj), event: 'cdrCreated' })).not.toEqual([]);
    const disabledBody = JSON.parse(
      JSON.stringify(buildNotificationBody('webhookDisabled', cases[3]![2] as never, sub)),
    ) as Obj;
    expect(check('WebhookDisabledNotification', { ...disabledBody, data: { subscriptionId: 'wh_1' } })).not.toEqual([]);

    // Headers as the dispatcher signs them (two secrets: a rotation) match the documented parameters.
    const params = doc.components.parameters;
    const headerAjv = new Ajv2020({ strict: false });
    const signed = signatureHeaders(
      [secretKey(generateSecret()), secretKey(generateSecret())],
      'msg_abcdefghijklmnopqrstuvwx',
      '{"a":1}',
    );
    for (const p of Object.values(params)) {
      const value = signed[p.name as keyof typeof signed];
      expect(value, p.name).toBeDefined();
      expect(headerAjv.validate(p.schema, value), `${p.name}: ${value}`).toBe(true);
    }
    expect(signed['webhook-signature'].split(' ')).toHaveLength(2);
  });

  it('when compared with the services, then every limit, default and error code the document states is theirs', () => {
    const doc = buildOpenApi('http://localhost') as unknown as Doc;
    expect(
      (doc.components.schemas.Problem as { properties: { code: { enum: string[] } } }).properties.code.enum,
    ).toEqual(Object.keys(ERROR_CODES));
    expect([limits.ACCOUNT_SUBSCRIPTIONS_MAX, limits.APPLICATION_SUBSCRIPTIONS_MAX]).toEqual([
      MAX_ACCOUNT_LEVEL,
      MAX_PER_APPLICATION,
    ]);
    expect([limits.NAME_MAX, limits.NAME_MAX]).toEqual([APPLICATION_NAME_MAX, SUBSCRIPTION_NAME_MAX]);
    expect(limits.PREVIOUS_SECRET_VALID_HOURS * 3_600_000).toBe(PREVIOUS_SECRET_VALID_MS);
    expect(limits.SESSION_LIMITS).toEqual({
      parameters: sessionRules.SESSION_PARAMETERS_MAX,
      parameterNameChars: sessionRules.SESSION_PARAMETER_NAME_MAX,
      parameterValueChars: sessionRules.SESSION_PARAMETER_VALUE_MAX,
      signalValueChars: sessionRules.SIGNAL_VALUE_MAX,
      sessionIdChars: sessionRules.SESSION_ID_MAX,
    });
    for (const p of [
      '/1.0/sessions',
      '/v1/sessions',
      '/rest/v1/sessions',
      '/1.0/sessions/{sessionId}/signals',
      '/v1/sessions/{sessionId}/signals',
    ])
      expect(doc.paths, p).toHaveProperty([p]);
    const dispatcher = loadDispatcherConfig({});
    expect(parseSchedule(limits.DELIVERY_DEFAULTS.retrySchedule)).toEqual(dispatcher.DELIVERY_RETRY_SCHEDULE);
    expect(limits.DELIVERY_DEFAULTS.timeoutMs).toBe(dispatcher.DELIVERY_TIMEOUT_MS);
    expect(limits.DELIVERY_DEFAULTS.retryJitter).toBe(dispatcher.DELIVERY_RETRY_JITTER);
    expect(parseDuration(limits.DELIVERY_DEFAULTS.retryAfterMax)).toBe(dispatcher.DELIVERY_RETRY_AFTER_MAX);
    expect(limits.DELIVERY_DEFAULTS.backlogPerAccount).toBe(dispatcher.DELIVERY_BACKLOG_PER_ACCOUNT);
    // And the document states them as numbers from there, not as its own literals.
    const listLimit = (
      doc.paths['/v1/applications'] as { get: { parameters: { name: string; schema: Obj }[] } }
    ).get.parameters.find((p) => p.name === 'limit')!;
    expect(listLimit.schema).toMatchObject({ maximum: LIST_MAX });
    expect(JSON.stringify(doc)).toContain(`default ${limits.BODY_LIMIT_DEFAULT_BYTES / 1024} KiB`);
    expect(JSON.stringify(doc)).toContain(`deeper than ${limits.JSON_MAX_DEPTH} levels`);
  });

  it('when a response breaks the contract, then the checker reports it (so passing tests mean conforming responses)', () => {
    const ok = JSON.stringify({ href: 'http://x/rest/v1/applications/a' });
    expect(checkResponse('POST', '/v1/applications', 200, 'application/json', ok)).toEqual([]);
    expect(checkResponse('POST', '/v1/applications', 201, 'application/json', ok)[0]).toMatch(/not documented/);
    expect(
      checkResponse('POST', '/v1/applications', 200, 'application/json', JSON.stringify({ href: 'x', extra: 1 })),
    ).not.toEqual([]);
    expect(checkResponse('GET', '/v1/applications/abc', 404, 'application/json', '{}')[0]).toMatch(/content type/);
    expect(
      checkResponse('GET', '/v1/applications/abc', 404, 'application/problem+json', JSON.stringify({ status: 404 })),
    ).not.toEqual([]);
  });
});

/**
 * Run in the page, in one round trip: scroll to `y` and wait for a frame, then measure how much
 * wider than the window the page is, its height and whether the window is at its end; at the end
 * and with `full`, also every element id and the text with a backtick that is on the screen (text
 * only for screen readers, a 1 px clipped box, is not). That walks every text node: it runs once
 * every 20 windows and at the end (rendered sections stay rendered).
 */
const pageProbe = (y: number, full: boolean) => `(async () => {
  window.scrollTo(0, ${y});
  await new Promise((r) => requestAnimationFrame(() => r(true)));
  const height = document.documentElement.scrollHeight;
  const last = ${y} > height - 900;
  const shown = [];
  const ids = [];
  if (${full} || last) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.includes('\`')) continue;
      const box = n.parentElement.getBoundingClientRect();
      if (box.width > 1 && box.height > 1 && n.parentElement.checkVisibility()) shown.push(n.textContent.trim().slice(0, 80));
    }
    for (const e of document.querySelectorAll('[id]')) ids.push(e.id);
  }
  return { ids, shown, overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth, last };
})()`;

describe('the docs page', () => {
  it('when opened at 1280 px in headless Chromium with no network, then Scalar renders every operation and outgoing POST from the gateway alone, markdown as markup (no raw backticks), with no sideways scroll', async () => {
    const browser = await chromium.launch(CHROMIUM);
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const external: string[] = [];
      const errors: string[] = [];
      const violations: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(stack.baseUrl)) external.push(r.url());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
        if (m.text().startsWith('csp-violation ')) violations.push(m.text().slice('csp-violation '.length));
      });
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (e) => console.info('csp-violation ' + e.violatedDirective + ' ' + e.blockedURI))",
      );
      const res = await page.goto(`${stack.baseUrl}/docs`);
      expect(res!.headers()['content-security-policy']).toMatch(/script-src 'self';/);
      expect(res!.headers()['content-security-policy']).not.toMatch(/unsafe-eval|https?:/);
      await page.waitForSelector('h1', { timeout: 20_000 });
      expect(await page.textContent('h1')).toContain('Switchboard API');
      // Markdown is markup: the introduction's `/v1/` is a code element.
      expect(await page.$$eval('code', (els) => els.some((e) => e.textContent === '/v1/'))).toBe(true);

      // Down the whole page (sections render as they come into view): what is shown, and whether
      // anything makes the page wider than the window or shows a raw backtick.
      const ids = new Set<string>();
      const ticks = new Set<string>();
      let widest = 0;
      for (let y = 0, step = 0; ; y += 850, step++) {
        const seen = (await page.evaluate(pageProbe(y, step % 20 === 0))) as {
          ids: string[];
          shown: string[];
          overflow: number;
          last: boolean;
        };
        for (const id of seen.ids) ids.add(id);
        for (const t of seen.shown) ticks.add(t);
        widest = Math.max(widest, seen.overflow);
        if (seen.last) break;
      }
      expect([...ticks]).toEqual([]);
      expect(widest).toBe(0);
      const doc = buildOpenApi(stack.baseUrl) as unknown as Doc;
      const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
        ['get', 'post', 'put', 'delete', 'patch'].filter((m) => item[m]).map((m) => `/${m.toUpperCase()}${path}`),
      );
      expect(operations.length).toBeGreaterThan(50);
      const shown = [...ids];
      expect(operations.filter((o) => !shown.some((id) => id.endsWith(o)))).toEqual([]);
      // Outgoing POSTs are listed under their names in lower case.
      expect(
        Object.keys(doc.webhooks).filter((w) => !shown.some((id) => id.endsWith(`/webhook/POST/${w.toLowerCase()}`))),
      ).toEqual([]);
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: join(tmpdir(), 'switchboard-docs-1280.png') });

      expect(external).toEqual([]);
      expect(errors).toEqual([]);
      // The one thing the CSP refuses: the bundle's schema library probing once for eval (it then
      // interprets instead).
      expect(violations.filter((v) => v !== 'script-src eval')).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 240_000);

  it('when the bundle is asked for, then it comes compressed under its content hash, cached for a year; another name is 404', async () => {
    const html = await (await fetch(`${stack.baseUrl}/docs`)).text();
    const [, name] = html.match(/src="\/docs\/(scalar\.[A-Za-z0-9_-]+\.js)"/) ?? [];
    expect(name).toBeDefined();
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${stack.baseUrl}/docs/${name}`, { headers: { 'accept-encoding': encoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect((await res.text()).length).toBeGreaterThan(1_000_000);
    }
    const other = await fetch(`${stack.baseUrl}/docs/scalar.AAAAAAAAAAAAAAAA.js`);
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
