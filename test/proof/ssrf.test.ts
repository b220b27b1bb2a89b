// Short version of `npm run proof -- ssrf`: every notation of loopback, private, link-local and
// metadata addresses is refused at create unless allow-listed, and redirects are never followed.
// The scenario's parts run here on their own clusters; the figures are checked by the test.
import { expect, it } from 'vitest';
import {
  ALLOWED_HOSTS,
  FORBIDDEN_HOSTS,
  NEAR_MISS_HOSTS,
  onSsrfCluster,
  ssrfAllowListed,
  ssrfNoAllowList,
} from '../../proof/scenarios/ssrf';

/** Each host is tried as a subscription target URL, an application voice URL and a messaging URL at create, and as a target URL and a voice URL at update. */
const FIELDS = 5;

it('when nothing is allow-listed, then every forbidden notation is refused with 400 in every URL field', async () => {
  const r = await onSsrfCluster(0, '', false, ssrfNoAllowList);
  expect(r.probes).toBe(FORBIDDEN_HOSTS.length * FIELDS);
  expect(r.accepted).toEqual([]);
}, 120_000);

it('when only 127.0.0.1/32 is allow-listed, then near misses are refused, its notations accepted, and no redirect is followed', async () => {
  const events = 5;
  const r = await onSsrfCluster(1, '127.0.0.1/32', false, (cluster) => ssrfAllowListed(cluster, events));
  expect(r.nearMiss.probes).toBe(NEAR_MISS_HOSTS.length * FIELDS);
  expect(r.nearMiss.accepted).toEqual([]);
  expect(r.allowed.probes).toBe(ALLOWED_HOSTS.length * FIELDS);
  expect(r.allowed.refused).toEqual([]);
  // Three redirecting subscriptions and one redirecting application were each tried for every event ...
  expect(r.redirects.sourceRequests).toBeGreaterThanOrEqual(4 * events);
  // ... and not one request reached a redirect's destination.
  expect(r.redirects.followed).toBe(0);
}, 120_000);
