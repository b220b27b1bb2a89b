// webhooks.changed: announced after every committed change of a subscription, so that the
// dispatcher drops what it cached. Best effort by design: a failure is logged and counted, never
// fails the request, because dispatcher caches also expire on their own.
import { Counter, type Logger, type Registry } from '@switchboard/observability';
import { publishJson, type JetStreamClient } from '@switchboard/messaging';
import { SUBJECTS } from '@switchboard/events';

export interface SubscriptionRef {
  id: string;
  accountId: string;
  applicationId: string | null;
}

export interface ChangePublisher {
  /** Publishes in the background; never throws. */
  changed(sub: SubscriptionRef, requestId?: string): void;
  /** Waits for publishes in flight (on shutdown). */
  drain(): Promise<void>;
}

export function createChangePublisher(js: JetStreamClient, logger: Logger, registry: Registry): ChangePublisher {
  const published = new Counter({
    name: 'webhooks_change_events_total',
    help: 'webhooks.changed events published, by outcome (ok, error).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const inflight = new Set<Promise<void>>();
  return {
    changed(sub, requestId) {
      const body = { subscriptionId: sub.id, accountId: String(sub.accountId), applicationId: sub.applicationId ?? '' };
      const p = publishJson(js, SUBJECTS.webhooksChanged, body)
        .then(() => {
          published.inc({ outcome: 'ok' });
        })
        .catch((err: unknown) => {
          published.inc({ outcome: 'error' });
          logger.warn(
            { err: (err as Error)?.message, subscriptionId: sub.id, requestId },
            'could not publish webhooks.changed',
          );
        })
        .finally(() => inflight.delete(p));
      inflight.add(p);
    },
    async drain() {
      await Promise.allSettled([...inflight]);
    },
  };
}
