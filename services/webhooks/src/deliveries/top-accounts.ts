// The tenants with the most delivery records, for the dashboards' "Delivery outcomes by tenant (top
// 10)": a gauge with at most TOP_ACCOUNTS accounts (times four outcomes), instead of a counter with
// a series per tenant ever seen. Records are counted per account and outcome over one-minute
// windows; a scrape shows the per-second rates of the last full window (of the current one until a
// window has passed) for the accounts with the most records in it. A window counts at most
// MAX_ACCOUNTS_PER_WINDOW accounts: records of accounts beyond them are left out of the ranking.
import { Gauge, type Registry } from '@switchboard/observability';

export const TOP_ACCOUNTS = 10;
export const WINDOW_MS = 60_000;
export const MAX_ACCOUNTS_PER_WINDOW = 10_000;

type Counts = Map<string, Map<string, number>>;

export interface TopAccounts {
  count(accountId: string, outcome: string): void;
}

export function topAccountsGauge(registry: Registry, now: () => number = Date.now): TopAccounts {
  let current: Counts = new Map();
  let previous: Counts | undefined;
  let start = now();
  const roll = () => {
    const t = now();
    if (t - start < WINDOW_MS) return;
    // A window with no records after it is gone too.
    previous = t - start < 2 * WINDOW_MS ? current : new Map();
    current = new Map();
    start = t;
  };
  new Gauge({
    name: 'webhooks_delivery_outcomes_top',
    help: `Attempt records stored per second by account and outcome, over the last minute, for the ${TOP_ACCOUNTS} accounts with the most.`,
    labelNames: ['account', 'outcome'],
    registers: [registry],
    collect() {
      roll();
      const counts = previous ?? current;
      const seconds = previous ? WINDOW_MS / 1000 : Math.max(1, (now() - start) / 1000);
      const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
      const top = [...counts.entries()].sort((x, y) => total(y[1]) - total(x[1])).slice(0, TOP_ACCOUNTS);
      this.reset();
      for (const [account, outcomes] of top)
        for (const [outcome, n] of outcomes) this.set({ account, outcome }, n / seconds);
    },
  });
  return {
    count(accountId, outcome) {
      roll();
      let outcomes = current.get(accountId);
      if (!outcomes) {
        if (current.size >= MAX_ACCOUNTS_PER_WINDOW) return;
        outcomes = new Map();
        current.set(accountId, outcomes);
      }
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    },
  };
}
