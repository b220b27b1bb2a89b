// The console's largest asset served over loopback by the gateway's own route (consoleRoutes:
// compressed once, Brotli or gzip from memory) and by express.static (serve-static: the file as it
// is, from disk, with ETag; it compresses nothing). Prints the bytes sent, and the CPU of this
// process (server and client, which decodes the body) and the wall time per request.
// Run after `npm run build -w @switchboard/console`:
//   npx tsx --conditions=@switchboard/source bench/micro/static.ts
import { readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import express from 'express';
import { consoleRoutes, DEFAULT_CONSOLE_DIR } from '../../services/gateway/src/http/console-app.ts';

const REQUESTS = Number(process.env.BENCH_STATIC_REQUESTS ?? 2000);
const asset = readdirSync(`${DEFAULT_CONSOLE_DIR}assets`)
  .filter((f) => f.endsWith('.js'))
  .sort()
  .at(-1);
if (!asset) throw new Error('build the console first: npm run build -w @switchboard/console');

const app = express();
consoleRoutes(app);
app.use('/plain', express.static(DEFAULT_CONSOLE_DIR, { index: false, etag: true }));
const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function measure(name: string, path: string, headers: Record<string, string>) {
  let bytes = 0;
  for (let i = 0; i < 200; i++) await (await fetch(base + path, { headers })).arrayBuffer();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const res = await fetch(base + path, { headers });
    // fetch decodes the body: count what crossed the wire.
    bytes = Number(res.headers.get('content-length') ?? 0);
    await res.arrayBuffer();
  }
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  console.log(
    `${name.padEnd(28)} ${String(bytes).padStart(7)} bytes  ${((used.user + used.system) / REQUESTS).toFixed(0).padStart(5)} us CPU  ${((ms * 1000) / REQUESTS).toFixed(0).padStart(5)} us a request`,
  );
}

console.log(
  `Node ${process.version}, ${asset}, ${REQUESTS} requests each; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (let round = 0; round < 2; round++) {
  await measure('gateway, br from memory', `/console/assets/${asset}`, { 'accept-encoding': 'br' });
  await measure('gateway, gzip from memory', `/console/assets/${asset}`, { 'accept-encoding': 'gzip' });
  await measure('express.static (as is)', `/plain/assets/${asset}`, { 'accept-encoding': 'br, gzip' });
}
server.close();
