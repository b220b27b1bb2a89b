// Latency bounds under a second, measured here instead of asserted by the tests (which assert the
// behaviour: who is answered, what is tried, what is left): on the test stack (test/support), each
// figure is sampled a number of times and its worst case checked against its bound.
// - lockout bystander: a GET by one account while another is locked out after failed logins;
// - large delete: DELETE of a subscription with many delivery records (the records go later);
// - session fallback: from the primary's third 5xx to the fallback's POST, and from publishing a
//   session to its instructions when the primary's breaker is open (the fallback at once).
import { SUBJECTS } from '@switchboard/events';
import {
  fillDeliveries,
  metricSum,
  randomName,
  startReceiver,
  startServices,
  waitFor,
  type Received,
} from '../test/support';
import { fmt, percentile, table } from './lib';

export interface LatencyFigure {
  name: string;
  /** The bound the worst sample is checked against, in ms. */
  boundMs: number;
  samples: number[];
}

export interface LatencyBenchResult {
  figures: LatencyFigure[];
}

export interface LatencyBenchOptions {
  /** Samples per figure. */
  samples: number;
  /** Delivery records of the subscription the large delete removes. */
  records: number;
}

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function gatewayFigures(o: LatencyBenchOptions): Promise<LatencyFigure[]> {
  const stack = await startServices({
    gateway: true,
    webhooks: true,
    env: {
      AUTH_MAX_FAILURES: '3',
      AUTH_LOCKOUT_MS: '60000',
      // every failed login comes from 127.0.0.1: its address budget must outlast the samples
      AUTH_ADDRESS_FAILURES_BURST: '100000',
      DELIVERY_ALLOWED_CIDRS: '127.0.0.1/32',
    },
  });
  try {
    const bystander: number[] = [];
    const deletes: number[] = [];
    const bob = await stack.createAccount('bob');
    const get = (authorization: string) =>
      fetch(`${stack.baseUrl}/v1/applications`, { headers: { authorization } }).then((r) => r.arrayBuffer());
    await get(bob.authorization);
    for (let i = 0; i < o.samples; i++) {
      const victim = await stack.createAccount('victim');
      for (let k = 0; k < 4; k++) await get(basic(victim.username, `guess-${k}`));
      bystander.push(await timed(() => get(bob.authorization)));
    }
    const hook = { event: 'smsdlr', resource: 'sms', targetUrl: 'https://example.com/hook' };
    for (let i = 0; i < o.samples; i++) {
      const me = await stack.createAccount('bulk');
      const res = await stack.request(me, 'POST', '/v1/webhooks', hook);
      const id = ((await res.json()) as { href: string }).href.split('/').pop()!;
      await fillDeliveries(stack.databaseUrl, id, me.id, o.records);
      deletes.push(await timed(() => stack.request(me, 'DELETE', `/v1/webhooks/${id}`).then((r) => r.arrayBuffer())));
    }
    return [
      { name: 'GET by an account while another is locked out', boundMs: 1000, samples: bystander },
      { name: `DELETE of a subscription with ${o.records} records`, boundMs: 1000, samples: deletes },
    ];
  } finally {
    await stack.stop();
  }
}

async function sessionFigures(o: LatencyBenchOptions): Promise<LatencyFigure[]> {
  const stack = await startServices({ webhooks: true, env: { DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128' } });
  const rx = await startReceiver();
  const bad = await startReceiver();
  const instructions = new Map<string, number>();
  const sub = stack.bus.nc.subscribe(SUBJECTS.sessionInstructions, {
    callback: (err, m) => void (err || instructions.set((m.json() as { sessionId: string }).sessionId, Date.now())),
  });
  const tropo = {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tropo: [{ say: { value: 'spare' } }] }),
  };
  try {
    const account = await stack.newAccount();
    const newApp = async (urls: Record<string, string>) =>
      (await stack.applications.client.createApplication({ accountId: account, name: 'app', ...urls })).application!.id;
    const callIn = async (applicationId: string) => {
      const id = randomName('session');
      const published = Date.now();
      await stack.publish('sessions.new', {
        applicationId,
        session: { id, from: { id: '+14155550100', channel: 'VOICE' }, to: { id: '+14155550199', channel: 'VOICE' } },
      });
      return {
        id,
        published,
        done: () =>
          waitFor(() => instructions.get(id), { what: `instructions of ${id}`, timeoutMs: 15_000, intervalMs: 2 }),
      };
    };
    const ofSession = (r: Received[], id: string) =>
      r.filter((x) => (x.body as { session?: { id?: string } })?.session?.id === id);

    // After the primary's third 5xx, the fallback (no breaker opens: a high volume threshold).
    const fallbackGap: number[] = [];
    let d = await stack.startDispatcher({ DELIVERY_BREAKER_VOLUME_THRESHOLD: '100000' });
    const app = await newApp({ voiceUrl: rx.url('/primary'), voiceFallbackUrl: rx.url('/fallback') });
    rx.on('/primary', () => 503);
    rx.on('/fallback', () => tropo);
    for (let i = 0; i < o.samples; i++) {
      const s = await callIn(app);
      await s.done();
      const third = ofSession(rx.at('/primary'), s.id)[2]!;
      const fallback = ofSession(rx.at('/fallback'), s.id)[0]!;
      fallbackGap.push(fallback.at - third.at);
    }
    await d.stop();

    // The primary's host known bad (its breaker open): the fallback at once.
    const openBreaker: number[] = [];
    d = await stack.startDispatcher({
      SESSION_TIMEOUT_MS: '1000',
      SESSION_DEADLINE_MS: '6000',
      DELIVERY_BREAKER_RESET_TIMEOUT: '1h',
      DELIVERY_BREAKER_VOLUME_THRESHOLD: '5',
      DELIVERY_BREAKER_WINDOW: '5s',
    });
    const known = await newApp({ voiceUrl: bad.url('/down'), voiceFallbackUrl: rx.url('/spare') });
    bad.on('/down', () => 502);
    rx.on('/spare', () => tropo);
    for (let i = 0; i < 2; i++) await (await callIn(known)).done();
    const open = d;
    await waitFor(async () => metricSum(await open.metrics(), 'dispatcher_breakers', { state: 'open' }) >= 1, {
      what: 'the breaker open',
    });
    for (let i = 0; i < o.samples; i++) {
      const s = await callIn(known);
      openBreaker.push((await s.done()) - s.published);
    }
    await d.stop();
    return [
      { name: 'session: third 5xx of the primary to the fallback', boundMs: 300, samples: fallbackGap },
      { name: "session: publish to instructions, primary's breaker open", boundMs: 400, samples: openBreaker },
    ];
  } finally {
    sub.unsubscribe();
    await stack.stop();
    await rx.close();
    await bad.close();
  }
}

export async function runLatencyBench(o: LatencyBenchOptions): Promise<LatencyBenchResult> {
  return { figures: [...(await gatewayFigures(o)), ...(await sessionFigures(o))] };
}

/** Whether every figure's worst sample is within its bound. */
export function latencyWithinBounds(r: LatencyBenchResult): boolean {
  return r.figures.every((f) => Math.max(...f.samples) < f.boundMs);
}

export function printLatencyResults(r: LatencyBenchResult): string {
  const rows = [['figure', 'samples', 'p50 ms', 'max ms', 'bound ms', 'within']];
  for (const f of r.figures) {
    const sorted = [...f.samples].sort((a, b) => a - b);
    const max = sorted[sorted.length - 1]!;
    rows.push([
      f.name,
      String(sorted.length),
      fmt(percentile(sorted, 50)),
      fmt(max),
      String(f.boundMs),
      max < f.boundMs ? 'yes' : 'NO',
    ]);
  }
  return `Latency bounds (worst sample against the bound)\n${table(rows)}`;
}
