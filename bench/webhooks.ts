// Issue 3 benchmark: webhook subscriptions through the full stack (gateway -> gRPC -> webhooks ->
// Postgres, and webhooks -> applications for application ownership), against the same single
// Express process serving the same routes straight from the webhooks tables. Same machine, same
// run, same load: GET /v1/webhooks (10 items), GET /v1/webhooks/:id and POST creates.
//
// docs/api-rules.md#limits allows 10 subscriptions per application, so the creates go to application-level paths,
// spread over many applications made up front: every measured create is meant to succeed (a 409
// means the applications ran out and shows in the non-2xx column).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  compareScenarios,
  type CompareOptions,
  printComparison,
  startBenchStack,
  type Scenario,
  type Target,
  type ScenarioResult,
} from './lib';

export type { ScenarioResult } from './lib';

/** Subscriptions per application allowed by docs/api-rules.md#limits. */
const PER_APPLICATION = 10;
/** Consecutive creates go to this many different applications, so they rarely wait on one another's limit lock. */
const SPREAD = 100;
/** Applications made up front per second of load (warm-up included): room for 10,000 creates/s. */
const APPLICATIONS_PER_SECOND = 1000;

export async function runWebhooksBench(opts: CompareOptions): Promise<ScenarioResult[]> {
  const stack = await startBenchStack({ webhooks: true });
  try {
    const gw = `http://127.0.0.1:${stack.gatewayPort}`;
    const post = async (path: string, body: unknown): Promise<string> => {
      const res = await fetch(`${gw}${path}`, { method: 'POST', headers: stack.headers, body: JSON.stringify(body) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${text}`);
      return (JSON.parse(text) as { href: string }).href.split('/').pop()!;
    };

    // The account at its limit: 10 account-level subscriptions (the list and the read), and one
    // application at its limit (not read, but in the same tables).
    const events = ['smsdlr', 'cdrCreated', 'cdrRated'];
    let webhookId = '';
    for (let i = 0; i < 10; i++) {
      webhookId = await post('/v1/webhooks', {
        name: `bench ${i}`,
        event: events[i % 3],
        resource: i % 2 ? 'call,sms' : 'all',
        targetUrl: `https://example.com/hook/${i}`,
        ...(i % 3 === 0 ? { payload: { tenant: 'bench', n: i } } : {}),
      });
    }
    const appId = await post('/v1/applications', { name: 'bench app', voiceUrl: 'https://example.com/voice.json' });
    for (let i = 0; i < 10; i++) {
      await post(`/v1/applications/${appId}/webhooks`, {
        event: events[i % 3],
        resource: 'sms',
        targetUrl: `https://example.com/app-hook/${i}`,
      });
    }

    // Applications for the creates (10 subscriptions each), inserted in one statement: one set for
    // the stack and another for the baseline, whose creates share the tables but not the limit check.
    const count = Math.ceil(((opts.seconds * opts.rounds + 2) * APPLICATIONS_PER_SECOND) / SPREAD) * SPREAD;
    const targets = {
      stack: Array.from({ length: count }, () => randomBytes(12).toString('hex')),
      baseline: Array.from({ length: count }, () => randomBytes(12).toString('hex')),
    };
    const client = new pg.Client({ connectionString: stack.db.url });
    await client.connect();
    try {
      await client.query(
        `insert into applications.applications (id, account_id, name, voice_url, environment_id, api_type)
         select id, (select id from applications.accounts where username = 'bench'), 'create target', 'https://example.com/voice.json', 2, 'scripting'
         from unnest($1::text[]) as id`,
        [[...targets.stack, ...targets.baseline]],
      );
    } finally {
      await client.end();
    }

    await checkSameJson(stack.gatewayPort, stack.baselinePort, stack.headers, webhookId);

    // Request i of a system goes to its application (i / 1000) * 100 + i % 100: each application
    // gets its 10 creates 100 requests apart.
    const next = { stack: 0, baseline: 0 };
    // No lean baseline here: the webhooks benchmark loads the system and the Express baseline.
    const createPath = (t: Target) => {
      const target = t === 'stack' ? 'stack' : 'baseline';
      const i = next[target]++;
      const app = (Math.floor(i / (SPREAD * PER_APPLICATION)) * SPREAD + (i % SPREAD)) % count;
      return `/v1/applications/${targets[target][app]}/webhooks`;
    };
    let n = 0;
    const createBody = () =>
      JSON.stringify({
        name: `created ${n}`,
        event: 'smsdlr',
        resource: 'sms',
        targetUrl: `https://example.com/created/${n++}`,
      });
    const scenarios: Scenario[] = [
      { name: 'GET /v1/webhooks/:id', path: `/v1/webhooks/${webhookId}`, method: 'GET' },
      { name: 'GET /v1/webhooks (10 items)', path: '/v1/webhooks', method: 'GET' },
      { name: 'POST /v1/applications/:id/webhooks', path: createPath, method: 'POST', body: createBody },
    ];
    return await compareScenarios(stack, scenarios, opts);
  } finally {
    await stack.stop();
  }
}

/** The baseline must answer what the gateway answers (hrefs aside): warn when a read differs. */
async function checkSameJson(
  gatewayPort: number,
  baselinePort: number,
  headers: Record<string, string>,
  id: string,
): Promise<void> {
  for (const path of [`/v1/webhooks/${id}`, '/v1/webhooks']) {
    const [a = '', b = ''] = await Promise.all(
      [gatewayPort, baselinePort].map(async (port) => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
        return (await res.text()).replaceAll(`http://localhost:${port}`, '<base>');
      }),
    );
    if (a !== b)
      process.stderr.write(
        `  warning: GET ${path} differs between stack and baseline\n    stack:    ${a.slice(0, 600)}\n    baseline: ${b.slice(0, 600)}\n`,
      );
  }
}

export function printWebhooksResults(title: string, results: ScenarioResult[], connections: number): string {
  return printComparison(title, results, connections, true);
}
