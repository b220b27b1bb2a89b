// The per-tenant delivery gauge stays bounded: however many tenants have records, a scrape shows
// the 10 with the most over the last minute, and a window counts a bounded number of tenants.
import { describe, expect, it } from 'vitest';
import { Registry } from '@switchboard/observability';
import { MAX_ACCOUNTS_PER_WINDOW, TOP_ACCOUNTS, topAccountsGauge, WINDOW_MS } from '../src/deliveries/top-accounts';

const series = async (registry: Registry) => {
  const metric = await registry.getSingleMetric('webhooks_delivery_outcomes_top')!.get();
  return metric.values.map((v) => ({
    account: String(v.labels.account),
    outcome: String(v.labels.outcome),
    value: v.value,
  }));
};

describe('webhooks_delivery_outcomes_top', () => {
  it('when 50 tenants have records, then a scrape shows the 10 with the most, as rates over the last full minute', async () => {
    const registry = new Registry();
    let t = 0;
    const top = topAccountsGauge(registry, () => t);
    // Tenant i stores i records: tenants 41-50 are the busiest.
    for (let i = 1; i <= 50; i++) for (let n = 0; n < i; n++) top.count(`acc${i}`, n % 2 ? 'failed' : 'succeeded');
    t = WINDOW_MS;
    const shown = await series(registry);
    const accounts = [...new Set(shown.map((s) => s.account))].sort();
    expect(accounts).toHaveLength(TOP_ACCOUNTS);
    expect(accounts).toEqual(Array.from({ length: 10 }, (_, k) => `acc${41 + k}`).sort());
    const acc50 = shown.filter((s) => s.account === 'acc50').reduce((a, s) => a + s.value, 0);
    expect(acc50).toBeCloseTo(50 / (WINDOW_MS / 1000));

    // Two quiet minutes later the busy tenants are gone from the gauge.
    t = 3 * WINDOW_MS;
    top.count('acc1', 'succeeded');
    t = 4 * WINDOW_MS;
    expect((await series(registry)).map((s) => s.account)).toEqual(['acc1']);
  });

  it('when more tenants than a window counts have records, then the ones beyond it are left out and the series stay 10 per outcome', async () => {
    const registry = new Registry();
    let t = 0;
    const top = topAccountsGauge(registry, () => t);
    for (let i = 0; i < MAX_ACCOUNTS_PER_WINDOW + 500; i++) top.count(`acc${i}`, 'succeeded');
    top.count('late', 'succeeded');
    top.count('late', 'succeeded');
    t = WINDOW_MS;
    const shown = await series(registry);
    expect(shown).toHaveLength(TOP_ACCOUNTS);
    expect(shown.map((s) => s.account)).not.toContain('late');
  });
});
