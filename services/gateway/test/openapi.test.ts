import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { checkResponse, startStack, type Stack } from '@switchboard/testing';
import { buildOpenApi } from '../src/openapi';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack?.stop());

describe('the OpenAPI document', () => {
  it('when linted with redocly, then it has no errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(buildOpenApi('http://localhost:8080'), null, 2));
    writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\nrules:\n  info-license-url: off\n  operation-4xx-response: error\n');
    const { stdout, stderr } = await run(join(root, 'node_modules/.bin/redocly'), ['lint', file, '--config', join(dir, 'redocly.yaml')], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((err: { stdout: string; stderr: string }) => {
      throw new Error(`redocly lint failed:\n${err.stdout}\n${err.stderr}`);
    });
    expect(`${stdout}${stderr}`).toMatch(/valid/i);
  }, 60_000);

  it('when fetched from the gateway without credentials, then it is the document, with every SPEC path', async () => {
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
      '/rest/v1/applications/{id}',
      '/rest/v1/environments/{id}',
      '/rest/v1/users/{id}',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
  });

  it('when a response breaks the contract, then the checker reports it (so passing tests mean conforming responses)', () => {
    const ok = JSON.stringify({ href: 'http://x/rest/v1/applications/a' });
    expect(checkResponse('POST', '/v1/applications', 200, 'application/json', ok)).toEqual([]);
    expect(checkResponse('POST', '/v1/applications', 201, 'application/json', ok)[0]).toMatch(/not documented/);
    expect(checkResponse('POST', '/v1/applications', 200, 'application/json', JSON.stringify({ href: 'x', extra: 1 }))).not.toEqual([]);
    expect(checkResponse('GET', '/v1/applications/abc', 404, 'application/json', '{}')[0]).toMatch(/content type/);
    expect(checkResponse('GET', '/v1/applications/abc', 404, 'application/problem+json', JSON.stringify({ status: 404 }))).not.toEqual([]);
  });
});

describe('the docs page', () => {
  it('when opened in headless Chromium with no network, then it lists every operation of the document', async () => {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      const external: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(stack.baseUrl)) external.push(r.url());
      });
      await page.goto(`${stack.baseUrl}/docs`);
      await page.waitForSelector('body[data-operations]', { timeout: 15_000 });
      const doc = buildOpenApi(stack.baseUrl) as { paths: Record<string, Record<string, { operationId?: string }>> };
      const expected = Object.values(doc.paths).flatMap((item) => ['get', 'post', 'put', 'delete'].flatMap((m) => (item[m]?.operationId ? [item[m]!.operationId!] : [])));
      const listed = await page.$$eval('section.op', (els) => els.map((e) => e.getAttribute('data-operation')));
      expect(listed).toEqual(expected);
      expect(await page.textContent('h1')).toContain('Switchboard API');
      expect(external).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
