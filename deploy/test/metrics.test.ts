// The metric catalog the alerts and dashboards are checked against (lib/catalog.ts) must match what
// the running services expose: the four services are started, given traffic that touches every
// metric (API calls, a failed authentication, a delivery that fails once then succeeds, a poison
// message), and each metric of the catalog must appear on its service's /metrics with its type and
// exactly its label names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cdrEvent,
  startDeliveryServices,
  startReceiver,
  waitFor,
  type Receiver,
  type Services,
} from '../../test/support';
import { LABEL_VALUES, METRICS, SERVICE_NAMES, type ServiceName } from './lib/catalog';

type Stack = Services<{ gateway: true; webhooks: true; dispatcher: true }>;

interface Exposed {
  type: string | undefined;
  /** Label names of each sample (without a histogram's `le`), sorted. */
  labelSets: string[][];
  /** Values seen for each label. */
  values: Map<string, Set<string>>;
}

/** What a Prometheus text exposition says about one metric family. */
function exposed(text: string, name: string, type: string): Exposed {
  const sampleName = type === 'histogram' ? `${name}_count` : name;
  const out: Exposed = { type: undefined, labelSets: [], values: new Map() };
  for (const line of text.split('\n')) {
    const t = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (t) {
      if (t[1] === name) out.type = t[2];
      continue;
    }
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+\S+/.exec(line);
    if (!m || m[1] !== sampleName) continue;
    const labels = [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].filter((x) => x[1] !== 'le');
    out.labelSets.push(labels.map((x) => x[1]!).sort());
    for (const [, k, v] of labels) {
      let s = out.values.get(k!);
      if (!s) out.values.set(k!, (s = new Set()));
      s.add(v!);
    }
  }
  return out;
}

let stack: Stack;
let rx: Receiver;
const scrapes = {} as Record<ServiceName, string>;

const scrape = async (port: number) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
const dispatcherMetrics = Object.entries(METRICS).filter(([, s]) => s.service === 'dispatcher');

beforeAll(async () => {
  rx = await startReceiver();
  stack = await startDeliveryServices({
    gateway: true,
    dispatcher: true,
    dispatcherEnv: { DELIVERY_RETRY_SCHEDULE: '200ms,400ms' },
  });
  // API traffic: authenticated reads (the second from the auth cache), a write to each gRPC service,
  // a wrong password.
  const account = await stack.createAccount('metrics');
  for (let i = 0; i < 2; i++) expect((await stack.request(account, 'GET', '/v1/applications')).status).toBe(200);
  expect(
    (
      await stack.request(
        { ...account, authorization: `Basic ${Buffer.from(`${account.username}:wrong`).toString('base64')}` },
        'GET',
        '/v1/applications',
      )
    ).status,
  ).toBe(401);
  expect(
    (await stack.request(account, 'POST', '/v1/applications', { name: 'metrics', voiceUrl: rx.url('/voice') })).status,
  ).toBe(200);
  expect(
    (
      await stack.request(account, 'POST', '/v1/webhooks', {
        event: 'cdrCreated',
        resource: 'call',
        targetUrl: rx.url('/hook'),
      })
    ).status,
  ).toBe(200);
  // A delivery that fails once (a retry) and then succeeds, and a message that is not JSON.
  rx.on('/hook', (_req, n) => (n === 1 ? 500 : 200));
  await stack.publish('cdr.created', cdrEvent(account.id, { data: { durationSeconds: 1 } }));
  await stack.publish('cdr.created', 'not json');
  await waitFor(() => rx.delivered('/hook').size === 1, { what: 'the delivery after a retry', timeoutMs: 20_000 });
  // The dispatcher's gauges are filled by a poll: wait until every metric of the catalog has a sample.
  scrapes.dispatcher = await waitFor(
    async () => {
      const text = await stack.dispatcher.metrics();
      return dispatcherMetrics.every(([name, s]) => exposed(text, name, s.type).labelSets.length > 0) && text;
    },
    { what: 'a sample of every dispatcher metric', timeoutMs: 20_000 },
  );
  scrapes.gateway = await scrape(stack.gateway.opsPort);
  scrapes.applications = await scrape(stack.applications.opsPort);
  // The webhooks service counts the attempt records once a batch of them is stored.
  const webhooksMetrics = Object.entries(METRICS).filter(([, s]) => s.service === 'webhooks');
  scrapes.webhooks = await waitFor(
    async () => {
      const text = await scrape(stack.webhooks.opsPort);
      return webhooksMetrics.every(([name, s]) => exposed(text, name, s.type).labelSets.length > 0) && text;
    },
    { what: 'a sample of every webhooks metric', timeoutMs: 20_000 },
  );
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await rx?.close();
});

it('every service of the catalog is scraped', () => {
  expect(Object.keys(scrapes).sort()).toEqual([...SERVICE_NAMES].sort());
});

describe.each(Object.entries(METRICS))('%s', (name, spec) => {
  it(`is exposed by ${spec.service} as a ${spec.type} with labels [${spec.labels.join(', ')}]`, () => {
    const e = exposed(scrapes[spec.service], name, spec.type);
    expect(e.type, `# TYPE of ${name} on ${spec.service}`).toBe(spec.type);
    expect(e.labelSets.length, `samples of ${name} on ${spec.service}`).toBeGreaterThan(0);
    for (const labels of e.labelSets) expect(labels).toEqual([...spec.labels].sort());
  });
});

it('the label values the alerts and dashboards match on are the ones the dispatcher uses', () => {
  const deliveries = exposed(scrapes.dispatcher, 'dispatcher_deliveries_total', 'counter');
  expect([...(deliveries.values.get('kind') ?? [])]).toEqual(['notification']);
  expect([...(deliveries.values.get('outcome') ?? [])].sort()).toEqual(['retrying', 'succeeded']);
  for (const v of [...deliveries.values.get('kind')!, ...deliveries.values.get('outcome')!]) {
    expect([
      ...LABEL_VALUES['dispatcher_deliveries_total.kind'],
      ...LABEL_VALUES['dispatcher_deliveries_total.outcome'],
    ]).toContain(v);
  }
  const breakers = exposed(scrapes.dispatcher, 'dispatcher_breakers', 'gauge');
  expect([...(breakers.values.get('state') ?? [])].sort()).toEqual(
    [...LABEL_VALUES['dispatcher_breakers.state']].sort(),
  );
});
