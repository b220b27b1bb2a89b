// Soak: measure the maximum rate of application reads through the gateways' proxy with a short
// autocannon run, then hold half of it for `minutes` while writes and events continue at a steady
// pace. Reports errors (must be 0), each process's resident-memory slope (least squares over the
// samples after warm-up, MB/min) and the dispatchers' consumer backlog at the end (must drain to 0).
import autocannon from 'autocannon';
import type { Cluster } from '../cluster';
import { rssMb } from '../cluster';
import { cdrEvent, startApiLoad, startEventLoad, summarizeApi } from '../lib/load';
import type { Receiver } from '../lib/receiver';
import { duplicates } from '../lib/receiver';
import { metricSum, sleep, slope } from '../lib/stats';
import { api, finish, newAccount, newTarget, until, type ScenarioResult } from './common';

async function cannon(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  overallRate?: number,
) {
  const r = await autocannon({ url, headers, duration: seconds, connections, ...(overallRate ? { overallRate } : {}) });
  const statusCodes = Object.fromEntries(
    Object.entries(r.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, st]) => [code, st.count ?? 0]),
  );
  return {
    rps: r.requests.average,
    total: r.requests.total,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    timeouts: r.timeouts,
    statusCodes,
  };
}

export async function soak(
  cluster: Cluster,
  rx: Receiver,
  opts: { minutes: number; measureSeconds?: number; eventRate?: number },
): Promise<ScenarioResult> {
  const started = Date.now();
  const reader = await newAccount(cluster, 'soak');
  const app = await api(cluster, reader, 'POST', '/v1/applications', {
    name: 'soak',
    voiceUrl: rx.url('/soak/unused'),
  });
  const url = `${cluster.apiUrl}/v1/applications/${String(app.json.href).split('/').pop()}`;
  const headers = { authorization: reader.authorization };
  await cannon(url, headers, 2, 20); // warm-up
  const max = await cannon(url, headers, opts.measureSeconds ?? 10, 50);
  const rate = Math.max(10, Math.floor(max.rps / 2));

  const t = await newTarget(cluster, rx, 'soak');
  const writers = startApiLoad({
    apiUrl: cluster.apiUrl,
    accounts: [await newAccount(cluster, 'soakw')],
    concurrency: 2,
    ratePerSecond: 10,
    voiceUrl: rx.url('/soak/unused'),
  });
  const events = startEventLoad({
    bus: cluster.bus,
    ratePerSecond: opts.eventRate ?? 20,
    make: (i) => cdrEvent(`soak-${i}`, t.account.id),
  });

  // Warm-up at the held rate (a fifth of the soak, at most 2 minutes): a young process grows its heap
  // toward a steady size first, which is not a leak; the slope is measured after it.
  const warmupSeconds = Math.round(Math.min(120, (opts.minutes * 60) / 5));
  const warm = await cannon(url, headers, warmupSeconds, 20, rate);

  const samples = new Map<string, Array<[number, number]>>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const minute = (Date.now() - started) / 60_000;
      for (const r of cluster.replicas) {
        const pid = r.pid();
        const mb = pid ? rssMb(pid) : undefined;
        if (mb === undefined) continue;
        let s = samples.get(r.name);
        if (!s) samples.set(r.name, (s = []));
        s.push([minute, mb]);
      }
      await sleep(3000);
    }
  })();
  const soakStart = Date.now();
  const held = await cannon(url, headers, Math.round(opts.minutes * 60), 20, rate);
  sampling = false;
  await sampler;
  await Promise.all([writers.stop(), events.stop()]);

  // Consumer backlog back to zero.
  const pending = async () => {
    let sum = 0;
    for (const d of cluster.of('dispatcher'))
      sum += metricSum(await d.metrics().catch(() => ''), 'dispatcher_consumer_pending');
    return sum;
  };
  let lag = await pending();
  const lagAtEnd = lag;
  const lagDeadline = Date.now() + 60_000;
  while (lag > 0 && Date.now() < lagDeadline) {
    await sleep(1000);
    lag = await pending();
  }
  const drained = await until(
    () => [...events.published].every((id) => rx.stats(t.eventsPath).okEvents.has(id)),
    60_000,
  );
  let lost = 0;
  for (const id of events.published) if (!rx.stats(t.eventsPath).okEvents.has(id)) lost++;

  // Slope after warm-up: skip the first quarter (at most one minute).
  const skipMin = (soakStart - started) / 60_000 + Math.min(1, opts.minutes / 4);
  const slopes: Record<string, number> = {};
  const rss: Record<string, string> = {};
  for (const [name, pts] of samples) {
    const kept = pts.filter(([m]) => m >= skipMin);
    slopes[name] = Math.round(slope(kept) * 100) / 100;
    rss[name] = `${Math.round(kept[0]?.[1] ?? 0)}->${Math.round(kept[kept.length - 1]?.[1] ?? 0)}`;
  }
  const writeErrors = writers.log.filter((r) => r.status === 0 || r.status >= 400).length;
  const errors = warm.non2xx + warm.errors + held.non2xx + held.errors + writeErrors;
  return finish(
    {
      name: 'soak',
      apiRequests: warm.total + held.total + writers.log.length,
      apiFailed: errors,
      eventsPublished: events.published.size,
      eventsLost: lost,
      duplicates: duplicates(rx.stats(t.eventsPath)),
      figures: {
        minutes: opts.minutes,
        warmupSeconds,
        measuredMaxRps: Math.round(max.rps),
        heldRps: Math.round(held.rps),
        targetRps: rate,
        p99Ms: held.p99,
        rssSlopeMbPerMin: slopes,
        rssMb: rss,
        // What failed, if anything: reads (non-2xx by status, transport errors, timeouts) and writes by status (0: transport error).
        failedReads: {
          warmup: { byStatus: warm.statusCodes, errors: warm.errors, timeouts: warm.timeouts },
          held: { byStatus: held.statusCodes, errors: held.errors, timeouts: held.timeouts },
        },
        failedWritesByStatus: summarizeApi(writers.log, 0).failedByStatus,
        consumerPendingAtEnd: lagAtEnd,
        consumerPendingAfterDrain: lag,
        eventsDrained: drained !== undefined,
      },
    },
    started,
    {
      'no errors': errors === 0,
      'no event lost': lost === 0,
      'consumer lag back to 0': lag === 0,
      // "Beyond noise": a leak of 1 MB/min would be 1.4 GB a day; flag anything steeper than 2 MB/min over 10 minutes.
      ...(opts.minutes >= 5
        ? { 'no resident-memory growth beyond noise (< 2 MB/min)': Object.values(slopes).every((s) => s < 2) }
        : {}),
    },
  );
}
