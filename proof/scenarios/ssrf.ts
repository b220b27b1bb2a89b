// SSRF: target URLs and application URLs naming loopback, private, link-local and metadata
// addresses, in every notation (dotted, decimal, hex, octal, short, IPv6 forms that wrap an IPv4
// address: mapped, translated, NAT64, Teredo), are refused with 400 at create and at update unless
// allow-listed; and the dispatcher never follows a redirect, so an
// allow-listed target cannot bounce a delivery to an address that is not.
import type { Cluster } from '../cluster';
import { startCluster } from '../cluster';
import { cdrEvent, sessionEvent } from '../lib/load';
import { startReceiver } from '../lib/receiver';
import { api, finish, newAccount, until, type ScenarioResult } from './common';

/** Hosts that must be refused when nothing is allow-listed. */
export const FORBIDDEN_HOSTS = [
  // loopback
  '127.0.0.1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0x7f.0.0.1',
  '0177.0.0.1',
  '017700000001',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:ffff:127.0.0.1]',
  // unspecified
  '0.0.0.0',
  '0',
  '[::]',
  // private
  '10.0.0.1',
  '167772161',
  '0xa000001',
  '012.0.0.1',
  '172.16.0.1',
  '192.168.1.1',
  '0xc0a80101',
  '[::ffff:10.0.0.1]',
  '[::ffff:192.168.1.1]',
  '[fc00::1]',
  '[fd00::1]',
  // link-local and cloud metadata
  '169.254.0.1',
  '[fe80::1]',
  '169.254.169.254',
  '2852039166',
  '0xa9fea9fe',
  '0251.0376.0251.0376',
  '0xa9.0xfe.0xa9.0xfe',
  '[::ffff:169.254.169.254]',
  '[::ffff:a9fe:a9fe]',
  '[fd00:ec2::254]',
  // IPv4-translated (::ffff:0:0:0/96) of 10.0.0.1, 127.0.0.1, 169.254.169.254
  '[::ffff:0:a00:1]',
  '[::ffff:0:10.0.0.1]',
  '[::ffff:0:7f00:1]',
  '[::ffff:0:a9fe:a9fe]',
  // NAT64: the well-known prefix 64:ff9b::/96 around private addresses, and the local-use 64:ff9b:1::/48
  '[64:ff9b::a00:1]',
  '[64:ff9b::10.0.0.1]',
  '[64:ff9b::7f00:1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b:1::a00:1]',
  '[64:ff9b:1:a00:0:100::]',
  '[64:ff9b:1::169.254.169.254]',
  // Teredo (2001::/32) whose client address is 10.0.0.1, 127.0.0.1, 169.254.169.254 (stored inverted)
  '[2001:0:4136:e378:8000:63bf:f5ff:fffe]',
  '[2001::80ff:fffe]',
  '[2001::5601:5601]',
];

/** Hosts outside 127.0.0.1/32 that stay refused when only 127.0.0.1/32 is allow-listed. */
export const NEAR_MISS_HOSTS = [
  '127.0.0.2',
  '2130706434',
  '0x7f000002',
  '0177.0.0.2',
  '[::ffff:127.0.0.2]',
  '[::ffff:7f00:2]',
  '[::ffff:0:7f00:2]',
  '[64:ff9b::7f00:2]',
  '[::1]',
  '10.0.0.1',
  '169.254.169.254',
];
/** Notations of 127.0.0.1, accepted when 127.0.0.1/32 is allow-listed. */
export const ALLOWED_HOSTS = [
  '127.0.0.1',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '[::ffff:127.0.0.1]',
  '[::ffff:0:7f00:1]',
];

interface Probe {
  method: 'POST' | 'PUT';
  url: string;
  field: 'targetUrl' | 'voiceUrl' | 'messagingUrl';
  status: number;
}

/** Creates with each host, and updates a subscription and an application made with a public URL to it. */
async function probeCreates(cluster: Cluster, hosts: string[]): Promise<Probe[]> {
  const out: Probe[] = [];
  let account = await newAccount(cluster, 'ssrf');
  let hooks = 0;
  let existing: { hook: string; app: string } | undefined;
  for (const host of hosts) {
    const url = `http://${host}:8080/hook`;
    if (hooks >= 8) {
      account = await newAccount(cluster, 'ssrf');
      hooks = 0;
      existing = undefined;
    }
    if (!existing) {
      const h = await api(cluster, account, 'POST', '/v1/webhooks', {
        event: 'cdrCreated',
        resource: 'call',
        targetUrl: 'https://example.com/hook',
      });
      const a = await api(cluster, account, 'POST', '/v1/applications', {
        name: 'ssrf',
        voiceUrl: 'https://example.com/voice',
      });
      if (h.status !== 200 || a.status !== 200) throw new Error(`create with a public URL: ${h.status} ${a.status}`);
      existing = {
        hook: new URL(String(h.json.href)).pathname,
        app: `/v1/applications/${String(a.json.href).split('/').pop()}`,
      };
      hooks++;
    }
    const w = await api(cluster, account, 'POST', '/v1/webhooks', {
      event: 'cdrCreated',
      resource: 'call',
      targetUrl: url,
    });
    if (w.status === 200) hooks++;
    out.push({ method: 'POST', url, field: 'targetUrl', status: w.status });
    const v = await api(cluster, account, 'POST', '/v1/applications', { name: 'ssrf', voiceUrl: url });
    out.push({ method: 'POST', url, field: 'voiceUrl', status: v.status });
    const m = await api(cluster, account, 'POST', '/v1/applications', { name: 'ssrf', messagingUrl: url });
    out.push({ method: 'POST', url, field: 'messagingUrl', status: m.status });
    const wu = await api(cluster, account, 'PUT', existing.hook, {
      event: 'cdrCreated',
      resource: 'call',
      targetUrl: url,
    });
    out.push({ method: 'PUT', url, field: 'targetUrl', status: wu.status });
    const vu = await api(cluster, account, 'PUT', existing.app, { name: 'ssrf', voiceUrl: url });
    out.push({ method: 'PUT', url, field: 'voiceUrl', status: vu.status });
  }
  return out;
}

/** Part 1: with nothing allow-listed, every forbidden notation is refused at create and update. */
export async function ssrfNoAllowList(cluster: Cluster): Promise<{ probes: number; accepted: Probe[] }> {
  const probes = await probeCreates(cluster, FORBIDDEN_HOSTS);
  return { probes: probes.length, accepted: probes.filter((p) => p.status !== 400) };
}

/**
 * Part 2 (a cluster with only 127.0.0.1/32 allowed): near misses refused, 127.0.0.1 notations
 * accepted, and targets on 127.0.0.1 that answer 3xx towards 127.0.0.2, another port of 127.0.0.1
 * or the metadata address are not followed (nothing reaches the redirect destinations).
 */
export async function ssrfAllowListed(cluster: Cluster, events = 5) {
  const nearMiss = await probeCreates(cluster, NEAR_MISS_HOSTS);
  const allowed = await probeCreates(cluster, ALLOWED_HOSTS);
  const source = await startReceiver('127.0.0.1');
  const sameHost = await startReceiver('127.0.0.1');
  let other: Awaited<ReturnType<typeof startReceiver>> | undefined;
  try {
    other = await startReceiver('127.0.0.2');
    const destinations = [other.url('/stolen'), sameHost.url('/followed'), 'http://169.254.169.254/latest/meta-data/'];
    const account = await newAccount(cluster, 'redirect');
    const paths: string[] = [];
    for (const [i, to] of destinations.entries()) {
      const path = `/redirect-${i}`;
      source.setMode(path, { status: i === 1 ? 307 : 302, headers: { location: to } });
      const r = await api(cluster, account, 'POST', '/v1/webhooks', {
        event: 'cdrCreated',
        resource: 'call',
        targetUrl: source.url(path),
      });
      if (r.status !== 200) throw new Error(`create redirecting subscription: ${r.status}`);
      paths.push(path);
    }
    source.setMode('/redirect-session', { status: 301, headers: { location: other.url('/stolen-session') } });
    const app = await api(cluster, account, 'POST', '/v1/applications', {
      name: 'redirect',
      voiceUrl: source.url('/redirect-session'),
    });
    const appId = String(app.json.href).split('/').pop()!;
    for (let i = 0; i < events; i++) {
      const c = cdrEvent(`ssrf-c${i}-${Date.now()}`, account.id);
      await cluster.bus.js.publish(c.subject, JSON.stringify(c.body));
      const s = sessionEvent(`ssrf-s${i}-${Date.now()}`, account.id, appId);
      await cluster.bus.js.publish(s.subject, JSON.stringify(s.body));
    }
    // Every redirect source is tried (first attempts at least) ...
    await until(() => [...paths, '/redirect-session'].every((p) => source.stats(p).requests >= events), 30_000);
    // ... and a little longer for any follow-up to show.
    await new Promise((r) => setTimeout(r, 2000));
    const sourceRequests = [...paths, '/redirect-session'].reduce((n, p) => n + source.stats(p).requests, 0);
    const followed =
      other.stats('/stolen').requests + other.stats('/stolen-session').requests + sameHost.stats('/followed').requests;
    return {
      nearMiss: { probes: nearMiss.length, accepted: nearMiss.filter((p) => p.status !== 400) },
      allowed: { probes: allowed.length, refused: allowed.filter((p) => p.status !== 200) },
      redirects: { sourceRequests, followed },
    };
  } finally {
    await Promise.all([source.close(), sameHost.close(), other?.close()]);
  }
}

/**
 * Runs one part of the scenario on a small cluster of its own (one gateway, applications and
 * webhooks service, `dispatchers` dispatchers) whose services allow `allowedCidrs`, and stops the
 * cluster when the part ends.
 */
export async function onSsrfCluster<T>(
  dispatchers: number,
  allowedCidrs: string,
  privatePostgres: boolean,
  part: (cluster: Cluster) => Promise<T>,
): Promise<T> {
  const cluster = await startCluster({
    gateways: 1,
    applications: 1,
    webhooks: 1,
    dispatchers,
    allowedCidrs,
    privatePostgres,
  });
  try {
    return await part(cluster);
  } finally {
    await cluster.stop();
  }
}

/** The whole SSRF scenario: two small clusters with different allow-lists. */
export async function ssrf(opts: { privatePostgres?: boolean } = {}): Promise<ScenarioResult> {
  const started = Date.now();
  const pp = opts.privatePostgres ?? false;
  const part1 = await onSsrfCluster(0, '', pp, ssrfNoAllowList);
  const part2 = await onSsrfCluster(1, '127.0.0.1/32', pp, (c) => ssrfAllowListed(c));
  return finish(
    {
      name: 'ssrf',
      apiRequests: part1.probes + part2.nearMiss.probes + part2.allowed.probes,
      figures: {
        refusedWithoutAllowList: `${part1.probes - part1.accepted.length}/${part1.probes}`,
        acceptedWithoutAllowList: part1.accepted.map((p) => `${p.method} ${p.field} ${p.url} -> ${p.status}`),
        nearMissesRefused: `${part2.nearMiss.probes - part2.nearMiss.accepted.length}/${part2.nearMiss.probes}`,
        nearMissesAccepted: part2.nearMiss.accepted.map((p) => `${p.method} ${p.field} ${p.url} -> ${p.status}`),
        allowListedAccepted: `${part2.allowed.probes - part2.allowed.refused.length}/${part2.allowed.probes}`,
        allowListedRefused: part2.allowed.refused.map((p) => `${p.method} ${p.field} ${p.url} -> ${p.status}`),
        redirectAttempts: part2.redirects.sourceRequests,
        redirectsFollowed: part2.redirects.followed,
      },
    },
    started,
    {
      'every forbidden notation refused with 400 at create and update (no allow-list)': part1.accepted.length === 0,
      'near misses of the allow-list refused': part2.nearMiss.accepted.length === 0,
      'allow-listed notations accepted': part2.allowed.refused.length === 0,
      'redirecting targets were tried': part2.redirects.sourceRequests > 0,
      'no redirect followed': part2.redirects.followed === 0,
    },
  );
}
