// mTLS to a receiver (docs/api.md#delivery-settings) through the real gateway, webhooks service,
// dispatcher, Postgres and NATS: a receiver that requires a client certificate issued by a CA made
// in the test accepts the deliveries of the subscription with `tls`, and refuses those without.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useDeliveryStack, waitFor, type JsonBody, type Services, type TestAccount } from '../../../test/support';
import { deliveriesOf, publishCdr, subscribeCdr } from './delivery-helpers.ts';

let stack: Services<{ gateway: true; webhooks: true }>;
let alice: TestAccount;
let server: Server;
let base: string;
let pki: Record<'ca' | 'serverCert' | 'serverKey' | 'clientCert' | 'clientKey', string>;
const defaultCAs = tls.getCACertificates('default');
/** Requests the receiver accepted, with the client certificate's subject. */
const accepted: { path: string; subject: string }[] = [];

/** A CA, a server certificate for 127.0.0.1 and a client certificate, both issued by the CA (openssl). */
function makePki(): typeof pki {
  const dir = mkdtempSync(join(tmpdir(), 'sb-mtls-'));
  try {
    const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
    run('req', '-x509', ...ec, '-days', '2', '-subj', '/CN=test-ca', '-keyout', 'ca.key', '-out', 'ca.crt');
    writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\n');
    for (const [name, ext] of [
      ['server', ['-extfile', 'server.ext']],
      ['client', []],
    ] as const) {
      run('req', ...ec, '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.csr`);
      run(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        '2',
        '-out',
        `${name}.crt`,
        ...ext,
      );
    }
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    return {
      ca: read('ca.crt'),
      serverCert: read('server.crt'),
      serverKey: read('server.key'),
      clientCert: read('client.crt'),
      clientKey: read('client.key'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  pki = makePki();
  // The dispatcher runs in this process: it trusts the test CA as it would a public one.
  tls.setDefaultCACertificates([...defaultCAs, pki.ca]);
  server = createServer(
    { cert: pki.serverCert, key: pki.serverKey, ca: pki.ca, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      req.resume();
      req.on('end', () => {
        const peer = (req.socket as tls.TLSSocket).getPeerCertificate();
        accepted.push({ path: req.url ?? '', subject: String(peer.subject?.CN ?? '') });
        res.writeHead(204).end();
      });
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  tls.setDefaultCACertificates(defaultCAs);
});
useDeliveryStack(
  {
    gateway: true,
    dispatcher: true,
    dispatcherEnv: { DELIVERY_RETRY_SCHEDULE: '1h', DELIVERY_TIMEOUT_MS: '5000', RECORD_FLUSH_INTERVAL: '20ms' },
  },
  (f) =>
    ({
      stack,
      accounts: [alice],
    } = f),
  ['alice'],
);

const json = async (res: Response) => (await res.json()) as Record<string, JsonBody>;
const create = (path: string, extra: Record<string, unknown>) => subscribeCdr(stack, alice, `${base}${path}`, extra);

it('a receiver that requires a client certificate accepts the deliveries with tls and refuses those without', async () => {
  const withCert = await create('/with', { tls: { clientCertificate: pki.clientCert, privateKey: pki.clientKey } });
  const without = await create('/without', {});
  for (let n = 1; n <= 3; n++) await publishCdr(stack, alice.id, n);
  const records = async (id: string) => (await deliveriesOf(stack, alice, id)) as Record<string, JsonBody>[];
  await waitFor(async () => (await records(withCert)).filter((d) => d.outcome === 'succeeded').length === 3, {
    what: 'three deliveries with the certificate succeeded',
    timeoutMs: 20_000,
  });
  await waitFor(async () => (await records(without)).length === 3, {
    what: 'three deliveries without a certificate recorded',
    timeoutMs: 20_000,
  });
  expect(accepted.filter((a) => a.path === '/with').map((a) => a.subject)).toEqual(['client', 'client', 'client']);
  expect(accepted.filter((a) => a.path === '/without')).toEqual([]);
  for (const d of await records(without)) {
    expect(d.statusCode).toBeNull();
    expect(d.outcome).not.toBe('succeeded');
  }
}, 90_000);

it('"Send test" presents the client certificate: the receiver that requires one answers the test', async () => {
  const withCert = await create('/test-with', {
    tls: { clientCertificate: pki.clientCert, privateKey: pki.clientKey },
  });
  const without = await create('/test-without', {});
  const tested = await stack.request(alice, 'POST', `/v1/webhooks/${withCert}/test`);
  expect(tested.status).toBe(200);
  expect(await json(tested)).toMatchObject({ status: 204 });
  expect(accepted.filter((a) => a.path === '/test-with')).toEqual([{ path: '/test-with', subject: 'client' }]);
  // Without the certificate the handshake is refused: no status, an error, nothing accepted.
  const refused = await json(await stack.request(alice, 'POST', `/v1/webhooks/${without}/test`));
  expect(refused.status).toBeNull();
  expect(refused.error).toEqual(expect.any(String));
  expect(accepted.filter((a) => a.path === '/test-without')).toEqual([]);
}, 60_000);
