// The counter of stored attempt records by account and outcome (the dashboards' top 10 tenants),
// bounded: it keeps the series of at most `maxAccounts` accounts, the most recently counted. An
// account pushed out, or idle for `idleMs`, has its series removed (Prometheus reads that as a
// counter reset, which rate() handles), so the series count never grows with the tenants ever seen.
import { LRUCache } from 'lru-cache';
import { Counter, type Registry } from '@switchboard/platform';

export interface OutcomeMetric {
  inc(accountId: string, outcome: string): void;
  /** Accounts whose series are kept now. */
  readonly accounts: number;
}

export function outcomeMetric(registry: Registry, opts: { maxAccounts?: number; idleMs?: number } = {}): OutcomeMetric {
  const counter = new Counter({
    name: 'webhooks_delivery_outcomes_total',
    help: 'Attempt records stored, by account (tenant) and outcome; the series of the most recently active accounts only (at most 1,000, idle ones dropped after an hour).',
    labelNames: ['account', 'outcome'],
    registers: [registry],
  });
  // The outcomes counted per account, to remove exactly its series.
  const kept = new LRUCache<string, Set<string>>({
    max: opts.maxAccounts ?? 1000,
    ttl: opts.idleMs ?? 60 * 60 * 1000,
    ttlAutopurge: true,
    updateAgeOnGet: true,
    dispose: (outcomes, account) => {
      for (const outcome of outcomes) counter.remove({ account, outcome });
    },
  });
  return {
    inc(accountId, outcome) {
      let outcomes = kept.get(accountId);
      if (!outcomes) kept.set(accountId, (outcomes = new Set()));
      outcomes.add(outcome);
      counter.inc({ account: accountId, outcome });
    },
    get accounts() {
      return kept.size;
    },
  };
}
