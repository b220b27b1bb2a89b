// Auth abuse: a brute force against one username through the gateways' proxy. The username is
// locked out (429 + Retry-After after AUTH_MAX_FAILURES failures per gateway replica), the owner's
// already-verified credentials keep working, and other accounts' latency does not suffer.
import type { Cluster } from '../cluster';
import { basic, type Account } from '../lib/load';
import { countByStatus, percentile, sleep } from '../lib/stats';
import { finish, newAccount, type Scale, type ScenarioResult } from './common';

interface Timed {
  status: number;
  ms: number;
  retryAfter: string | null;
}

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
  // the username is locked out (README, Authentication).
  for (const g of cluster.of('gateway')) await timed(`http://127.0.0.1:${g.apiPort!}/v1/applications`, victim.authorization);
  const phaseMs = Math.max(3000, Math.round(15_000 * scale.factor));
  const baseline = await measure(cluster, others, phaseMs);

  const attack: Timed[] = [];
  let running = true;
  const attackLoop = async (w: number) => {
    for (let i = 0; running; i++) attack.push(await timed(`${cluster.apiUrl}/v1/applications`, basic(victim.username, `guess-${w}-${i}`)));
  };
  const loops = Array.from({ length: attackers }, (_, w) => attackLoop(w));
  await sleep(500);
  const [during, victimDuring] = await Promise.all([measure(cluster, others, phaseMs), measure(cluster, [victim], phaseMs)]);
  running = false;
  await Promise.all(loops);

  const guessesAnswered = attack.filter((r) => r.status === 401).length;
  const locked = attack.filter((r) => r.status === 429);
  const p = (xs: Timed[], q: number) => Math.round(percentile(xs.map((x) => x.ms), q) * 10) / 10;
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
    othersP50BeforeMs: p(baseline, 50),
    othersP99BeforeMs: p(baseline, 99),
    othersP50DuringMs: p(during, 50),
    othersP99DuringMs: p(during, 99),
    othersRequests: baseline.length + during.length,
    othersFailed,
    victimCachedRequests: victimDuring.length,
    victimCachedFailed: victimFailed,
    victimFailedStatuses: countByStatus(victimDuring.filter((r) => r.status !== 200)),
  };
  const gateways = cluster.of('gateway').length;
  return finish({ name: 'auth-abuse', apiRequests: figures.othersRequests, apiFailed: othersFailed, figures }, started, {
    'attacker locked out with 429 + Retry-After': locked.length > 0 && locked.every((r) => r.retryAfter !== null),
    // AUTH_MAX_FAILURES (5) per gateway replica; guesses already in flight when the count reaches
    // the limit are still verified (the lockout is checked before, counted after), so at most
    // (5 + attackers in parallel) per replica within one lockout window.
    [`at most ${gateways} x (5 + ${attackers}) passwords tried`]: guessesAnswered <= gateways * (5 + attackers),
    'other accounts never refused': othersFailed === 0,
    "the victim's verified credentials keep working": victimFailed === 0,
    'other accounts not slowed (p50 during <= 3 x before + 20 ms)': figures.othersP50DuringMs <= 3 * figures.othersP50BeforeMs + 20,
  });
}
