// npm run proof                      every scenario, full length (about 30 minutes)
// npm run proof -- <name> [<name>]   some of them (names: npm run proof -- --list)
// options: --minutes <m> (api-soak length, default 10), --factor <f> (fault and load durations, default 1),
//          --runs <n> (generated hostile requests, default 5000)
// Prints a results table and writes proof/results/<name>.json and proof/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { root, startCluster, type Cluster } from './cluster';
import { startReceiver, type Receiver } from './lib/receiver';
import { table } from './lib/stats';
import { authAbuse, kdfFlood } from './scenarios/auth';
import { retryFairness } from './scenarios/fairness';
import type { ScenarioResult } from './scenarios/common';
import { killReplica, natsRestart, postgresDown } from './scenarios/faults';
import { natsClusterScenario } from './scenarios/nats-cluster';
import { poisonEvents } from './scenarios/poison';
import { hostileInput } from './scenarios/property';
import { scaleOut } from './scenarios/scale';
import { soak } from './scenarios/soak';
import { storeSoak } from './scenarios/stores';
import { ssrf } from './scenarios/ssrf';
import { target410, target500, targetTimeout } from './scenarios/targets';
import { tenantFlood } from './scenarios/tenant-flood';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    minutes: { type: 'string' },
    factor: { type: 'string' },
    runs: { type: 'string' },
    list: { type: 'boolean' },
  },
});
const minutes = Number(values.minutes ?? 10);
const scale = { factor: Number(values.factor ?? 1) };
const runs = Number(values.runs ?? 5000);

interface Ctx {
  cluster: Cluster;
  rx: Receiver;
  /** Receivers on other loopback addresses for misbehaving targets (breakers are per host). */
  bad: Receiver;
}
const onCluster: Record<string, (c: Ctx) => Promise<ScenarioResult>> = {
  'scale-out': (c) => scaleOut(c.cluster, c.rx, scale),
  'kill-gateway': (c) => killReplica(c.cluster, c.rx, 'gateway', scale),
  'kill-applications': (c) => killReplica(c.cluster, c.rx, 'applications', scale),
  'kill-webhooks': (c) => killReplica(c.cluster, c.rx, 'webhooks', scale),
  'kill-dispatcher': (c) => killReplica(c.cluster, c.rx, 'dispatcher', scale),
  'postgres-down': (c) => postgresDown(c.cluster, c.rx, scale),
  'nats-restart': (c) => natsRestart(c.cluster, c.rx, scale),
  'target-timeout': (c) => targetTimeout(c.cluster, c.bad, c.rx, scale),
  'target-500': (c) => target500(c.cluster, c.bad, c.rx, scale),
  'target-410': (c) => target410(c.cluster, c.bad, scale),
  'auth-abuse': (c) => authAbuse(c.cluster, scale),
  'kdf-flood': (c) => kdfFlood(c.cluster, scale),
  'tenant-flood': (c) => tenantFlood(c.cluster, scale),
  poison: (c) => poisonEvents(c.cluster, c.rx, scale),
  'api-soak': (c) =>
    soak(c.cluster, c.rx, { minutes, measureSeconds: Math.max(3, Math.round(10 * Math.min(1, scale.factor))) }),
};
const standalone: Record<string, () => Promise<ScenarioResult>> = {
  ssrf: () => ssrf({ privatePostgres: false }),
  'hostile-input': () => hostileInput(runs),
  // Its own stack on a three-server NATS cluster (the prod topology).
  'nats-cluster': () => natsClusterScenario(scale),
  // One dispatcher, a dead endpoint with 20,000 waiting retries and another tenant's retries.
  'retry-fairness': () => retryFairness(scale),
  // Its own stack with every store small: 20 times each stream's capacity of mixed traffic.
  soak: () => storeSoak({ multiple: Math.max(5, Math.round(20 * scale.factor)) }),
};
const all = [...Object.keys(onCluster), ...Object.keys(standalone)];
/** Names that stand for several scenarios: `npm run proof -- auth`. */
const groups: Record<string, string[]> = {
  auth: ['auth-abuse', 'kdf-flood'],
  faults: ['kill-gateway', 'kill-applications', 'kill-webhooks', 'kill-dispatcher', 'postgres-down', 'nats-restart'],
  targets: ['target-timeout', 'target-500', 'target-410'],
};
if (values.list) {
  process.stdout.write(
    `${all.join('\n')}\n${Object.entries(groups)
      .map(([g, n]) => `${g} (${n.join(', ')})`)
      .join('\n')}\n`,
  );
  process.exit(0);
}
const chosen = positionals.length ? [...new Set(positionals.flatMap((n) => groups[n] ?? [n]))] : all;
const unknown = chosen.filter((n) => !all.includes(n));
if (unknown.length) {
  process.stderr.write(`unknown scenario(s): ${unknown.join(', ')}; one of: ${all.join(', ')}\n`);
  process.exit(2);
}

const resultsDir = join(root, 'proof', 'results');
mkdirSync(resultsDir, { recursive: true });
const results: ScenarioResult[] = [];
const record = (r: ScenarioResult) => {
  results.push(r);
  writeFileSync(join(resultsDir, `${r.name}.json`), `${JSON.stringify(r, null, 2)}\n`);
  process.stderr.write(
    `${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${Math.round(r.durationMs / 1000)} s)${r.failures.length ? `: ${r.failures.join('; ')}` : ''}\n`,
  );
};
const failed = (name: string, err: unknown): ScenarioResult => ({
  name,
  ok: false,
  failures: [`crashed: ${(err as Error).stack ?? String(err)}`],
  durationMs: 0,
});

const clusterNames = chosen.filter((n) => n in onCluster);
if (clusterNames.length) {
  process.stderr.write(
    'starting the cluster: 2 gateways, 2 applications, 2 webhooks, 3 dispatchers, private Postgres and NATS\n',
  );
  const cluster = await startCluster();
  const rx = await startReceiver('127.0.0.1');
  const bad = await startReceiver('127.0.0.2');
  try {
    for (const name of clusterNames) {
      process.stderr.write(`running ${name}\n`);
      record(await onCluster[name]!({ cluster, rx, bad }).catch((err) => failed(name, err)));
    }
  } finally {
    await Promise.all([rx.close(), bad.close()]);
    await cluster.stop();
  }
}
for (const name of chosen.filter((n) => n in standalone)) {
  process.stderr.write(`running ${name}\n`);
  record(await standalone[name]!().catch((err) => failed(name, err)));
}

const s = (ms?: number) => (ms === undefined ? '' : ms < 0 ? 'never' : (ms / 1000).toFixed(1));
const n = (v?: number) => (v === undefined ? '' : String(v));
const highlights = (r: ScenarioResult): string => {
  const f = r.figures ?? {};
  switch (r.name) {
    case 'scale-out':
      return Object.entries(f.workPerReplica as Record<string, number>)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
    case 'target-410':
      return `sent after 410: ${f.requestsMoreThan1sAfterFirst410}; enabled=${f.enabled}`;
    case 'poison':
      return `${f.poisonPublished} poison + ${f.validPublished} valid: ${f.validDelivered} delivered (${f.validDeliveredPerSecond}/s), ${f.deadLettered} dead-lettered, drained in ${f.backlogDrainedSeconds} s`;
    case 'auth-abuse':
      return `tried ${f.passwordsActuallyTried} of ${f.attackRequests} guesses; others p50 ${f.othersP50BeforeMs}->${f.othersP50DuringMs} ms, p99 ${f.othersP99BeforeMs}->${f.othersP99DuringMs} ms`;
    case 'kdf-flood':
      return `cached account p99 ${f.cachedP99BeforeMs}->${f.cachedP99DuringMs} ms (mean ${f.cachedMeanBeforeMs}->${f.cachedMeanDuringMs}) under ${f.attackers} bad logins in flight; ${f.passwordsVerified} of ${f.attackRequests} verified`;
    case 'tenant-flood':
      return `gateway RSS ${JSON.stringify(f.rssBeforeMiB)}->${JSON.stringify(f.rssAfterFirstRoundMiB)}->${JSON.stringify(f.rssAfterMiB)} MiB over two rounds of ${f.longIdRequests} over-long and ${f.validIdRequests} distinct session ids in all; launches over ${f.tokens} tokens: ${f.launchesAccepted} accepted, ${f.launchesRefused429} refused in ${f.launchSeconds} s`;
    case 'ssrf':
      return `refused ${f.refusedWithoutAllowList} (no allow-list), ${f.nearMissesRefused} near misses; followed ${f.redirectsFollowed} of ${f.redirectAttempts} redirects`;
    case 'retry-fairness':
      return `${f.deadDeliveriesWaiting} dead deliveries waiting (window ${f.retryWindow}, share ${f.perTargetShare}); other tenant's retries late by max ${f.otherRetryMaxLateMs} ms, median ${f.otherRetryMedianLateMs} ms, ${f.otherRetriesMissing} missing; ${f.parked} parked`;
    case 'hostile-input':
      return `${f.generatedRequests} requests + ${f.isolationCases} isolation cases; 5xx: ${f.fivexx}`;
    case 'soak': {
      const slopes = Object.values(f.rssSlopeMbPerMin as Record<string, number>);
      const ended = f.deadEnded as { backlog_full: number; expired: number };
      return `${f.eventsSent} events of ${f.eventBytes} B (${f.multiple}x a 1 MiB stream) in ${f.seconds} s: ${f.refused} refused; dead tenant ${ended.backlog_full} backlog_full + ${ended.expired} expired listed (${f.deadEndedMetric} counted); call setup p99 ${f.callSetupP99StartMs} -> ${f.callSetupP99EndMs} ms; store peaks ${JSON.stringify(f.storePeakKiB)} KiB; RSS slope ${Math.min(...slopes)}..${Math.max(...slopes)} MB/min`;
    }
    case 'api-soak': {
      const slopes = Object.values(f.rssSlopeMbPerMin as Record<string, number>);
      return `${f.minutes} min at ${f.heldRps}/${f.measuredMaxRps} req/s, p99 ${f.p99Ms} ms; RSS slope ${Math.min(...slopes)}..${Math.max(...slopes)} MB/min; lag ${f.consumerPendingAtEnd}->${f.consumerPendingAfterDrain}`;
    }
    case 'nats-cluster':
      return (
        (f.kills ?? []) as Array<{
          role: string;
          server: string;
          ledByVictim: string[];
          leaderAfter?: string;
          electionMs?: number;
          resumeMs: number;
          caughtUpMs: number;
        }>
      )
        .map(
          (k) =>
            `kill -9 ${k.role} ${k.server}${k.ledByVictim.some((a) => a.startsWith('SWITCHBOARD_INBOUND/')) ? ' (led the events consumer)' : ''}: deliveries resumed ${(k.resumeMs / 1000).toFixed(1)} s${k.role === 'leader' ? `, new leader ${k.leaderAfter} in ${((k.electionMs ?? -1) / 1000).toFixed(1)} s` : ''}, caught up ${(k.caughtUpMs / 1000).toFixed(1)} s after restart`,
        )
        .join('; ');
    default:
      return r.apiFailedByStatus && Object.keys(r.apiFailedByStatus).length
        ? `failed: ${Object.entries(r.apiFailedByStatus)
            .map(([k, v]) => `${k === '0' ? 'reset' : k} x${v}`)
            .join(', ')}`
        : '';
  }
};
const rows = [
  [
    'scenario',
    'ok',
    'requests',
    'failed',
    'events',
    'lost',
    'dups',
    'outage s',
    'API recovered s',
    'delivery caught up s',
    'notes',
  ],
];
for (const r of results)
  rows.push([
    r.name,
    r.ok ? 'yes' : 'NO',
    n(r.apiRequests),
    n(r.apiFailed),
    n(r.eventsPublished),
    n(r.eventsLost),
    n(r.duplicates),
    s(r.outageMs),
    s(r.apiRecoveryMs),
    s(r.deliveryRecoveryMs),
    highlights(r),
  ]);
const out = table(rows);
process.stdout.write(`\n${out}\n`);
writeFileSync(
  join(resultsDir, 'latest.json'),
  `${JSON.stringify({ at: new Date().toISOString(), minutes, factor: scale.factor, runs, results }, null, 2)}\n`,
);
process.exit(results.every((r) => r.ok) ? 0 : 1);
