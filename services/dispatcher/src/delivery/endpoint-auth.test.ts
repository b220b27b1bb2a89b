// The OAuth2 token cache against a token server on loopback: bounded (the least recently used goes),
// one request for concurrent callers, and reasons for the failures.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TokenCache } from './endpoint-auth.ts';

let server: Server;
let url: string;
let issued = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/bad-json') return void res.writeHead(200).end('nope');
      issued++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: `tok-${issued}`, expires_in: 3600 }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const cred = (clientId: string, path = '/token') => ({
  type: 'oauth2_client_credentials' as const,
  tokenUrl: `${url}${path}`,
  clientId,
  clientSecret: 's',
});

it('holds at most max tokens: past it the least recently used is dropped and fetched again when needed', async () => {
  const cache = new TokenCache({ max: 2 });
  const [a, b, c] = [cred('a'), cred('b'), cred('c')];
  // Ten concurrent callers of one credential: one request.
  const first = await Promise.all(Array.from({ length: 10 }, () => cache.get(a)));
  expect(new Set(first).size).toBe(1);
  expect(cache.requests).toBe(1);
  await cache.get(b);
  await cache.get(a); // a is now the most recently used
  await cache.get(c); // past the bound: b goes
  expect(cache.size).toBe(2);
  expect(cache.requests).toBe(3);
  await cache.get(a);
  expect(cache.requests).toBe(3);
  await cache.get(b);
  expect(cache.requests).toBe(4);
  expect(cache.size).toBe(2);
});

it('a token server that answers no token, or none at all, fails with the reason', async () => {
  const cache = new TokenCache({ max: 2 });
  await expect(cache.get(cred('x', '/bad-json'))).rejects.toThrow('token response is not JSON');
  await expect(cache.get({ ...cred('y'), tokenUrl: 'http://127.0.0.1:9/token' })).rejects.toThrow(
    /^token request failed/,
  );
  expect(cache.size).toBe(0);
});
