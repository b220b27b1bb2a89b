import { describe, expect, it } from 'vitest';
import { Registry } from '@switchboard/platform';
import { outcomeMetric } from './outcome-metric.ts';

const series = async (registry: Registry) =>
  (await registry.getMetricsAsJSON()).find((m) => m.name === 'webhooks_delivery_outcomes_total')?.values ?? [];

describe('the outcomes counter by account', () => {
  it('when more accounts are counted than it keeps, then only the most recent keep their series', async () => {
    const registry = new Registry();
    const m = outcomeMetric(registry, { maxAccounts: 3 });
    for (let a = 1; a <= 10; a++) {
      m.inc(String(a), 'succeeded');
      m.inc(String(a), 'failed');
    }
    const kept = await series(registry);
    expect(new Set(kept.map((v) => v.labels.account))).toEqual(new Set(['8', '9', '10']));
    expect(kept).toHaveLength(6);
    expect(m.accounts).toBe(3);
  });

  it('when an account is idle past its time, then its series go', async () => {
    const registry = new Registry();
    const m = outcomeMetric(registry, { idleMs: 50 });
    m.inc('1', 'succeeded');
    expect(await series(registry)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 120));
    m.inc('2', 'succeeded');
    expect((await series(registry)).map((v) => v.labels.account)).toEqual(['2']);
  });
});
