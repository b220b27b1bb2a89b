// Auth abuse: a brute force against one username through the gateways' proxy. The username is
// locked out (429 + Retry-After after AUTH_MAX_FAILURES failures per gateway replica), the owner's
// already-verified credentials keep working, and other accounts' latency does not suffer.
import { spawn } from 'node:child_process';
import type { Cluster } from '../cluster';
import { basic, type Account } from '../lib/load';
import { countByStatus, percentile, sleep } from '../lib/stats';
import { finish, newAccount, type Scale, type ScenarioResult } from './common';

interface Timed {
  status: number;
  ms: number;
  retryAfter: string | null;
}

/** The `q`th percentile of the requests' times, in ms to one decimal. */
const msAt = (xs: Timed[], q: number) =>
  Math.round(
    percentile(
      xs.map((x) => x.ms),
      q,
    ) * 10,
  ) / 10;

async function timed(url: string, authorization: string): Promise<Timed> {
  const t = performance.now();
  try {
    const res = await fetch(url, { headers: { authorization }, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t, retryAfter: res.headers.get('retry-after') };
  } catch {
    return { status: 0, ms: performance.now() - t, retryAfter: null };
  }
}

/** Sequential clients (one per account) reading their applications for `ms`. */
async function measure(cluster: Cluster, accounts: Account[], ms: number): Promise<Timed[]> {
  const out: Timed[] = [];
  const end = Date.now() + ms;
  await Promise.all(
    accounts.map(async (a) => {
      while (Date.now() < end) out.push(await timed(`${cluster.apiUrl}/v1/applications`, a.authorization));
    }),
  );
  return out;
}

export async function authAbuse(cluster: Cluster, scale: Scale, attackers = 16): Promise<ScenarioResult> {
  const started = Date.now();
  const victim = await newAccount(cluster, 'victim');
  const others = await Promise.all([1, 2, 3].map(() => newAccount(cluster, 'bystander')));
  // The victim's integration authenticates on every gateway replica before the attack (each
  // replica's cache), at the replica itself: through the proxy, kept-alive connections could all
  // land on one replica, and a replica that never verified the credential rightly refuses it while
  // the username is locked out (docs/api.md#authentication).
  for (const g of cluster.of('gateway'))
    await timed(`http://127.0.0.1:${g.apiPort!}/v1/applications`, victim.authorization);
  const phaseMs = Math.max(3000, Math.round(15_000 * scale.factor));
  const baseline = await measure(cluster, others, phaseMs);

  const attack: Timed[] = [];
  let running = true;
  const attackLoop = async (w: number) => {
    for (let i = 0; running; i++)
      attack.push(await timed(`${cluster.apiUrl}/v1/applications`, basic(victim.username, `guess-${w}-${i}`)));
  };
  const loops = Array.from({ length: attackers }, (_, w) => attackLoop(w));
  await sleep(500);
  const [during, victimDuring] = await Promise.all([
    measure(cluster, others, phaseMs),
    measure(cluster, [victim], phaseMs),
  ]);
  running = false;
  await Promise.all(loops);

  const guessesAnswered = attack.filter((r) => r.status === 401).length;
  const locked = attack.filter((r) => r.status === 429);
  const othersFailed = [...baseline, ...during].filter((r) => r.status !== 200).length;
  const victimFailed = victimDuring.filter((r) => r.status !== 200).length;
  const seconds = (phaseMs + 500) / 1000;
  const figures = {
    attackers,
    attackRequests: attack.length,
    attackPerSecond: Math.round(attack.length / seconds),
    passwordsActuallyTried: guessesAnswered,
    lockedOut429: locked.length,
    retryAfterSeconds: locked[0]?.retryAfter ?? null,
    othersP50BeforeMs: msAt(baseline, 50),
    othersP99BeforeMs: msAt(baseline, 99),
    othersP50DuringMs: msAt(during, 50),
    othersP99DuringMs: msAt(during, 99),
    othersRequests: baseline.length + during.length,
    othersFailed,
    victimCachedRequests: victimDuring.length,
    victimCachedFailed: victimFailed,
    victimFailedStatuses: countByStatus(victimDuring.filter((r) => r.status !== 200)),
  };
  const gateways = cluster.of('gateway').length;
  return finish(
    { name: 'auth-abuse', apiRequests: figures.othersRequests, apiFailed: othersFailed, figures },
    started,
    {
      'attacker locked out with 429 + Retry-After': locked.length > 0 && locked.every((r) => r.retryAfter !== null),
      // AUTH_MAX_FAILURES (5) per gateway replica; guesses already in flight when the count reaches
      // the limit are still verified (the lockout is checked before, counted after), so at most
      // (5 + attackers in parallel) per replica within one lockout window.
      [`at most ${gateways} x (5 + ${attackers}) passwords tried`]: guessesAnswered <= gateways * (5 + attackers),
      'other accounts never refused': othersFailed === 0,
      "the victim's verified credentials keep working": victimFailed === 0,
      'other accounts not slowed (p50 during <= 3 x before + 20 ms)':
        figures.othersP50DuringMs <= 3 * figures.othersP50BeforeMs + 20,
    },
  );
}

/**
 * The attackers of kdfFlood, in a process of their own (so that the measuring process's event loop
 * times only the measured requests): `attackers` loops, each sending a login with a wrong password
 * for an unknown username, the next when the answer is in but at most one every `pauseMs`, for
 * `ms`. Prints the answers' counts by status (0: no answer within 10 s) as JSON.
 */
const FLOOD_SCRIPT = `
const { url, attackers, pauseMs, ms, tag } = JSON.parse(process.argv[1]);
const byStatus = {};
const retryAfterMissing = { n: 0 };
const end = Date.now() + ms;
const sleep = (t) => new Promise((r) => setTimeout(r, t));
let n = 0;
async function loop(w) {
  await sleep((w * pauseMs) / attackers);
  while (Date.now() < end) {
    const t = Date.now();
    const auth = 'Basic ' + Buffer.from('nobody-' + tag + '-' + w + '-' + n++ + ':not-the-password').toString('base64');
    let status = 0;
    try {
      const res = await fetch(url, { headers: { authorization: auth }, signal: AbortSignal.timeout(10000) });
      await res.arrayBuffer();
      status = res.status;
      if ((status === 429 || status === 503) && !res.headers.get('retry-after')) retryAfterMissing.n++;
    } catch {}
    byStatus[status] = (byStatus[status] || 0) + 1;
    await sleep(Math.max(0, pauseMs - (Date.now() - t)));
  }
}
Promise.all(Array.from({ length: attackers }, (_, w) => loop(w))).then(() => {
  process.stdout.write(JSON.stringify({ byStatus, retryAfterMissing: retryAfterMissing.n }));
});
`;

function flood(o: {
  url: string;
  attackers: number;
  pauseMs: number;
  ms: number;
  tag: string;
}): Promise<{ byStatus: Record<string, number>; retryAfterMissing: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', FLOOD_SCRIPT, JSON.stringify(o)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`flood process exited with ${code}`)),
    );
  });
}

/**
 * KDF flood: `attackers` clients each send a login with a wrong password for an unknown username
 * (every one of which would cost a full KDF on the applications service), the next one when the
 * answer is in but at most one every `pauseMs`: while verifications are slow, that is `attackers`
 * logins in flight. (The pause keeps this a flood of KDF work, not of HTTP requests: quick refusals
 * answered at full speed would measure the HTTP stack instead, which the load balancer bounds.)
 * A cached account's latency is measured in the same run without and with the flood, in alternating
 * windows (the machine's other load drifts), at the first gateway replica: its p99 must stay within 2x.
 */
export async function kdfFlood(
  cluster: Cluster,
  scale: Scale,
  attackers = 400,
  pauseMs = 2000,
): Promise<ScenarioResult> {
  const started = Date.now();
  const owner = await newAccount(cluster, 'cached');
  const gateway = `http://127.0.0.1:${cluster.of('gateway')[0]!.apiPort!}/v1/applications`;
  const windowMs = Math.max(1500, Math.round(5000 * scale.factor));
  const rounds = 3;
  const sequential = async (ms: number): Promise<Timed[]> => {
    const out: Timed[] = [];
    const end = Date.now() + ms;
    while (Date.now() < end) out.push(await timed(gateway, owner.authorization));
    return out;
  };
  await sequential(500); // verified and cached, connection warm

  const baseline: Timed[] = [];
  const during: Timed[] = [];
  const attack: Record<string, number> = {};
  let retryAfterMissing = 0;
  for (let round = 0; round < rounds; round++) {
    baseline.push(...(await sequential(windowMs)));
    const attacking = flood({ url: gateway, attackers, pauseMs, ms: pauseMs + windowMs, tag: `${started}-${round}` });
    await sleep(pauseMs);
    during.push(...(await sequential(windowMs)));
    const r = await attacking;
    for (const [k, v] of Object.entries(r.byStatus)) attack[k] = (attack[k] ?? 0) + v;
    retryAfterMissing += r.retryAfterMissing;
  }

  const mean = (xs: Timed[]) => Math.round((xs.reduce((s, x) => s + x.ms, 0) / Math.max(1, xs.length)) * 10) / 10;
  const ownerFailed = [...baseline, ...during].filter((r) => r.status !== 200);
  const refused = (attack['429'] ?? 0) + (attack['503'] ?? 0);
  const figures = {
    attackers,
    attackRequests: Object.values(attack).reduce((a, b) => a + b, 0),
    attackByStatus: attack,
    passwordsVerified: attack['401'] ?? 0,
    refusedWithoutRetryAfter: retryAfterMissing,
    cachedRequestsBefore: baseline.length,
    cachedRequestsDuring: during.length,
    cachedMeanBeforeMs: mean(baseline),
    cachedMeanDuringMs: mean(during),
    cachedP50BeforeMs: msAt(baseline, 50),
    cachedP50DuringMs: msAt(during, 50),
    cachedP99BeforeMs: msAt(baseline, 99),
    cachedP99DuringMs: msAt(during, 99),
    cachedFailed: ownerFailed.length,
  };
  return finish(
    { name: 'kdf-flood', apiRequests: baseline.length + during.length, apiFailed: ownerFailed.length, figures },
    started,
    {
      'flood refused with 429/503 + Retry-After': refused > 0 && retryAfterMissing === 0,
      'the cached account is never refused': ownerFailed.length === 0,
      // 2 ms of slack: a p99 of 3 ms before is within noise of 7 ms.
      'cached p99 during the flood <= 2 x without it': figures.cachedP99DuringMs <= 2 * figures.cachedP99BeforeMs + 2,
    },
  );
}
