// GET /v1/applications/:id, GET the list and POST through the full stack (gateway -> gRPC ->
// applications -> Postgres), against two one-process baselines serving the same routes straight
// from Postgres with the same auth cache: an Express process (bench/baseline/server.ts) and the
// leanest server a user would write instead (bench/baseline/lean.ts: node:http, one prepared
// select per request, no batching). Same machine, same run, same load.
import {
  compareScenarios,
  type CompareOptions,
  printComparison,
  startBenchStack,
  type Scenario,
  type ScenarioResult,
} from './lib';

export type { ScenarioResult } from './lib';

export async function runApiBench(opts: CompareOptions): Promise<ScenarioResult[]> {
  const stack = await startBenchStack({ lean: true });
  try {
    const { headers } = stack;
    let id = '';
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`http://127.0.0.1:${stack.gatewayPort}/v1/applications`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          name: `bench ${i}`,
          voiceUrl: `https://example.com/voice/${i}`,
          messagingUrl: 'https://example.com/sms',
        }),
      });
      id = ((await res.json()) as { href: string }).href.split('/').pop()!;
    }
    let n = 0;
    const createBody = () => JSON.stringify({ name: `created ${n++}`, voiceUrl: 'https://example.com/voice' });
    const scenarios: Scenario[] = [
      { name: 'GET /v1/applications/:id', path: `/v1/applications/${id}`, method: 'GET' },
      { name: 'GET /v1/applications (20 items)', path: '/v1/applications', method: 'GET' },
      { name: 'POST /v1/applications', path: '/v1/applications', method: 'POST', body: createBody },
    ];
    return await compareScenarios(stack, scenarios, opts);
  } finally {
    await stack.stop();
  }
}

export function printApiResults(title: string, results: ScenarioResult[], connections: number): string {
  return printComparison(title, results, connections);
}
