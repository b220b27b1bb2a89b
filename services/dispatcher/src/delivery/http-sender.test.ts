import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseCidrList } from '@switchboard/security';
import { guardedLookup, HttpSender } from './http-sender';

let server: Server;
let port = 0;
const seen: { path: string; body: string; headers: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', body, headers: req.headers });
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest' });
        return res.end();
      }
      if (req.url === '/hang') return; // never answers
      if (req.url === '/answer') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"tropo":[]}');
      }
      if (req.url === '/large') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('x'.repeat(200_000));
      }
      if (req.url === '/trickle') {
        // headers at once, then a body that never ends
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"a":');
        const t = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(t));
        return;
      }
      res.writeHead(req.url === '/busy' ? 503 : 204, req.url === '/busy' ? { 'retry-after': '7' } : {});
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const loopback = parseCidrList('127.0.0.0/8,::1/128');
const fakeDns =
  (map: Record<string, string[]>) =>
  (host: string, cb: (err: NodeJS.ErrnoException | null, a: { address: string; family: number }[]) => void) =>
    cb(
      null,
      (map[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

describe('HTTP attempt with SSRF guard', () => {
  it('when the target answers, then status and Retry-After come back and the body is sent as JSON', async () => {
    const sender = new HttpSender({ timeoutMs: 2000, allowedCidrs: loopback });
    const ok = await sender.post(`http://127.0.0.1:${port}/ok?x=1`, '{"a":1}', { 'webhook-id': 'msg_1' });
    expect(ok).toMatchObject({ kind: 'response', status: 204 });
    expect(seen.at(-1)).toMatchObject({
      path: '/ok?x=1',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
    });
    expect(await sender.post(`http://127.0.0.1:${port}/busy`, '{}', {})).toMatchObject({
      status: 503,
      retryAfter: '7',
    });
    await sender.close();
  });

  it('when the target redirects, then the redirect is not followed', async () => {
    const sender = new HttpSender({ timeoutMs: 2000, allowedCidrs: loopback });
    const before = seen.length;
    const r = await sender.post(`http://127.0.0.1:${port}/redirect`, '{}', {});
    expect(r).toMatchObject({ kind: 'response', status: 302, location: 'http://169.254.169.254/latest' });
    expect(seen.length).toBe(before + 1);
    await sender.close();
  });

  it('when the target hangs, then the attempt times out', async () => {
    const sender = new HttpSender({ timeoutMs: 300, allowedCidrs: loopback });
    const r = await sender.post(`http://127.0.0.1:${port}/hang`, '{}', {});
    expect(r).toMatchObject({ kind: 'error', timedOut: true, refused: false });
    if (r.kind === 'error') expect(r.durationMs).toBeLessThan(2000);
    await sender.close();
  });

  it('when the answer is asked for, then its body comes back, cut and flagged past the limit', async () => {
    const sender = new HttpSender({ timeoutMs: 2000, allowedCidrs: loopback });
    const ok = await sender.post(`http://127.0.0.1:${port}/answer`, '{}', {}, undefined, { readBodyUpTo: 1024 });
    expect(ok).toMatchObject({
      kind: 'response',
      status: 200,
      answer: { contentType: 'application/json', tooLarge: false },
    });
    if (ok.kind === 'response') expect(ok.answer!.body.toString()).toBe('{"tropo":[]}');
    const large = await sender.post(`http://127.0.0.1:${port}/large`, '{}', {}, undefined, { readBodyUpTo: 64 * 1024 });
    expect(large).toMatchObject({ kind: 'response', status: 200, answer: { tooLarge: true } });
    if (large.kind === 'response') expect(large.answer!.body.length).toBe(64 * 1024);
    // not asked for: discarded, as for notifications
    expect(await sender.post(`http://127.0.0.1:${port}/answer`, '{}', {})).not.toHaveProperty('answer');
    await sender.close();
  });

  it('when the answer never ends, then the attempt times out within its own timeout', async () => {
    const sender = new HttpSender({ timeoutMs: 5000, allowedCidrs: loopback });
    const started = Date.now();
    const r = await sender.post(`http://127.0.0.1:${port}/trickle`, '{}', {}, undefined, {
      timeoutMs: 400,
      readBodyUpTo: 1024,
    });
    expect(r).toMatchObject({ kind: 'error', timedOut: true, error: 'timed out after 400 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
    await sender.close();
  });

  it('when a literal address is private and not allowed, then nothing is sent', async () => {
    const sender = new HttpSender({ timeoutMs: 2000, allowedCidrs: [] });
    const before = seen.length;
    for (const url of [
      `http://127.0.0.1:${port}/x`,
      'http://169.254.169.254/',
      'http://[::1]/',
      'http://10.1.2.3/',
      'http://0x7f000001/',
      'http://localhost/',
      'ftp://example.com/',
    ]) {
      expect(await sender.post(url, '{}', {}), url).toMatchObject({ kind: 'error', refused: true });
    }
    expect(seen.length).toBe(before);
    await sender.close();
  });

  it('when a name resolves to a private address, then the connection is refused at resolution time', async () => {
    const sender = new HttpSender({
      timeoutMs: 2000,
      allowedCidrs: [],
      resolver: fakeDns({ 'rebind.example': ['93.184.216.34', '127.0.0.1'] }),
    });
    const before = seen.length;
    const r = await sender.post(`http://rebind.example:${port}/x`, '{}', {});
    expect(r).toMatchObject({ kind: 'error', refused: true, code: 'ESSRF' });
    expect(seen.length).toBe(before);
    await sender.close();
  });

  it('when a name resolves to an IPv6 address wrapping a private IPv4 one, then it is refused and the record names no address', async () => {
    const warned: unknown[] = [];
    const logger = { warn: (obj: unknown) => void warned.push(obj) };
    const wrapped = [
      '::ffff:0:a00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::a00:1',
      '2001:0:4136:e378:8000:63bf:f5ff:fffe',
    ];
    const sender = new HttpSender({
      timeoutMs: 2000,
      allowedCidrs: loopback,
      logger: logger as never,
      resolver: fakeDns(Object.fromEntries(wrapped.map((a, i) => [`wrap${i}.example`, [a]]))),
    });
    const before = seen.length;
    for (const [i, address] of wrapped.entries()) {
      const r = await sender.post(`http://wrap${i}.example:${port}/x`, '{}', {});
      expect(r, address).toMatchObject({
        kind: 'error',
        refused: true,
        code: 'ESSRF',
        error: 'refused: resolves to a forbidden address',
      });
      expect(warned.at(-1), address).toEqual({ host: `wrap${i}.example`, address });
    }
    expect(seen.length).toBe(before);
    await sender.close();
  });

  it('when a literal IPv6 address wraps a private IPv4 one, then nothing is sent', async () => {
    const sender = new HttpSender({ timeoutMs: 2000, allowedCidrs: loopback });
    for (const url of [
      'http://[::ffff:0:a00:1]/',
      'http://[64:ff9b:1::a00:1]/',
      'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/',
    ]) {
      expect(await sender.post(url, '{}', {}), url).toMatchObject({ kind: 'error', refused: true });
    }
    await sender.close();
  });

  it('when a name resolves to an allowed address, then the request goes to that address', async () => {
    const sender = new HttpSender({
      timeoutMs: 2000,
      allowedCidrs: loopback,
      resolver: fakeDns({ 'hooks.example': ['127.0.0.1'] }),
    });
    const r = await sender.post(`http://hooks.example:${port}/named`, '{}', {});
    expect(r).toMatchObject({ kind: 'response', status: 204 });
    expect(seen.at(-1)).toMatchObject({ path: '/named', headers: { host: `hooks.example:${port}` } });
    await sender.close();
  });

  it('guardedLookup answers in both callback shapes', async () => {
    const lookup = guardedLookup([], fakeDns({ 'pub.example': ['93.184.216.34', '2606:2800:220:1::1'] }));
    const all = await new Promise((r) => lookup('pub.example', { all: true }, (_e, a) => r(a)));
    expect(all).toHaveLength(2);
    const one = await new Promise((r) => lookup('pub.example', { family: 4 }, (_e, a, f) => r([a, f])));
    expect(one).toEqual(['93.184.216.34', 4]);
  });
});
