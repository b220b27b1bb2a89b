// Tenant floods: an unauthenticated flood of signals to session ids nobody was given (most of
// them 8,000 characters long, the rest valid and distinct) must not grow the gateways' memory past
// their table budget; and one account launching through many tokens on every gateway replica gets
// its per-account budget (SESSION_LAUNCH_RATE_PER_ACCOUNT, burst) and no more.
import { readFileSync } from 'node:fs';
import type { Cluster } from '../cluster';
import { countByStatus } from '../lib/stats';
import { api, finish, newAccount, type Scale, type ScenarioResult } from './common';

const MiB = 1024 * 1024;

/** Resident memory of a process, in MiB (Linux). */
function rssMiB(pid: number | undefined): number {
  const m = pid ? /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8')) : null;
  return m ? Math.round((Number(m[1]) / 1024) * 10) / 10 : -1;
}

/** Runs `task(i)` for i < n, `width` at a time; answers the statuses (0: no answer). */
async function flood(n: number, width: number, task: (i: number) => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) statuses.push(await task(next++).catch(() => 0));
    }),
  );
  return statuses;
}

const status = async (res: Response) => (await res.arrayBuffer(), res.status);

export async function tenantFlood(
  cluster: Cluster,
  scale: Scale,
  opts: { rate?: number; burst?: number } = {},
): Promise<ScenarioResult> {
  const started = Date.now();
  const rate = opts.rate ?? 20;
  const burst = opts.burst ?? 40;
  const gateways = cluster.of('gateway');
  const rssBefore = gateways.map((g) => rssMiB(g.pid()));

  // The memory flood, twice: no credentials, ids far over the 200 characters a session id may have,
  // then distinct valid ones. The first round grows the heap to its working size; a second round
  // as large must not grow it again (what an unbounded table would: its keys stay).
  const long = 'x'.repeat(8000);
  const floodRequests = Math.max(2000, Math.round(20_000 * scale.factor));
  const longIds: number[] = [];
  const validIds: number[] = [];
  const rssAfterRound: number[][] = [];
  for (const round of [0, 1]) {
    longIds.push(
      ...(await flood(floodRequests, 64, (i) =>
        fetch(`${cluster.apiUrl}/1.0/sessions/${round}-${i}${long}/signals?value=exit`, { method: 'POST' }).then(
          status,
        ),
      )),
    );
    validIds.push(
      ...(await flood(Math.round(floodRequests / 2), 64, (i) =>
        fetch(`${cluster.apiUrl}/1.0/sessions/${'v'.repeat(190)}${round}-${i}/signals?value=exit`, {
          method: 'POST',
        }).then(status),
      )),
    );
    rssAfterRound.push(gateways.map((g) => rssMiB(g.pid())));
  }
  const [rssMid, rssAfter] = rssAfterRound as [number[], number[]];
  const tableBytes = await Promise.all(
    gateways.map(async (g) =>
      Number(/^gateway_table_bytes\{table="session_limiter"\} (\d+)/m.exec(await g.metrics())?.[1] ?? -1),
    ),
  );

  // The launch flood: one account, ten tokens, every request on the next gateway replica in turn.
  const account = await newAccount(cluster, 'launcher');
  const app = await api(cluster, account, 'POST', '/v1/applications', {
    name: 'flood',
    voiceUrl: 'https://example.com/voice',
  });
  const appId = String(app.json.href).split('/').pop()!;
  const tokens: string[] = [];
  for (let i = 0; i < 10; i++)
    tokens.push(
      String(
        (
          await api(cluster, account, 'POST', `/v1/applications/${appId}/addresses`, {
            type: 'token',
            channel: 'voice',
          })
        ).json.href,
      )
        .split('/')
        .pop()!,
    );
  const launchMs = Math.max(2000, Math.round(10_000 * scale.factor));
  const launchStarted = Date.now();
  const launches: number[] = [];
  await Promise.all(
    Array.from({ length: 32 }, async (_, w) => {
      for (let i = 0; Date.now() - launchStarted < launchMs; i++) {
        const g = gateways[(w + i) % gateways.length]!;
        launches.push(
          await fetch(`http://127.0.0.1:${g.apiPort!}/v1/sessions?token=${tokens[(w + i) % tokens.length]}`, {
            method: 'POST',
          })
            .then(status)
            .catch(() => 0),
        );
      }
    }),
  );
  const seconds = (Date.now() - launchStarted) / 1000;
  const accepted = launches.filter((s) => s === 200).length;
  const refused = launches.filter((s) => s === 429).length;
  const allowed = burst + Math.ceil(rate * seconds);

  const growth = Math.max(...rssAfter.map((a, i) => a - rssBefore[i]!));
  const secondRound = Math.max(...rssAfter.map((a, i) => a - rssMid[i]!));
  // What the over-long ids alone would hold in an unbounded table (one byte a character), per gateway.
  const unboundedMiB = Math.round((longIds.length * long.length) / gateways.length / MiB);
  const figures = {
    gateways: gateways.length,
    rssBeforeMiB: rssBefore,
    rssAfterFirstRoundMiB: rssMid,
    rssAfterMiB: rssAfter,
    rssGrowthMaxMiB: Math.round(growth * 10) / 10,
    rssGrowthSecondRoundMaxMiB: Math.round(secondRound * 10) / 10,
    unboundedKeysWouldHoldMiB: unboundedMiB,
    longIdRequests: longIds.length,
    longIdStatuses: countByStatus(longIds.map((s) => ({ status: s }))),
    validIdRequests: validIds.length,
    validIdStatuses: countByStatus(validIds.map((s) => ({ status: s }))),
    sessionTableBytes: tableBytes,
    tokens: tokens.length,
    launchSeconds: Math.round(seconds * 10) / 10,
    launchAttempts: launches.length,
    launchesAccepted: accepted,
    launchesRefused429: refused,
    launchesAllowedAtMost: allowed,
  };
  return finish(
    { name: 'tenant-flood', apiRequests: longIds.length + validIds.length + launches.length, figures },
    started,
    {
      'every over-long session id refused 400': longIds.every((s) => s === 400),
      'no 5xx or transport error in the memory flood': [...longIds, ...validIds].every((s) => s > 0 && s < 500),
      // RSS is a coarse measure (the heap keeps some 100 MiB of slack after a flood of 8 KB URLs): it
      // must stay under what the over-long keys alone would hold in an unbounded table, plus 32 MiB.
      // A flood whose keys would hold less than that slack (the short version's 15 MiB) cannot tell
      // a bounded table from an unbounded one by RSS: there the tables' own bytes are the check.
      ...(unboundedMiB >= 32
        ? { 'gateway RSS grew less than unbounded keys would hold': growth < unboundedMiB + 32 }
        : {}),
      'session tables within RATE_LIMIT_TABLE_BYTES (16 MiB)': tableBytes.every((b) => b >= 0 && b <= 16 * MiB),
      'launches accepted within the per-account budget':
        accepted >= Math.min(burst, launches.length) && accepted <= allowed + 2,
      'every other launch refused 429': accepted + refused === launches.length,
    },
  );
}
