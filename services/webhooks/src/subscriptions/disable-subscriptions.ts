// Turning subscriptions off for the dispatcher's reasons (410 Gone; failing for DELIVERY_DISABLE_AFTER),
// inside the caller's transaction, each with the webhooks.disabled event that announces it written
// to the outbox in the same transaction: a subscription is never disabled without its notice, nor
// announced without being disabled. Only a change from enabled to disabled is announced, so a
// subscription that is already off (or disabled twice by concurrent batches) announces nothing:
// every notice stands for one such change, and only a PUT {"enabled": true} makes another possible.
// Each change also raises the webhook.disabled alert (alerts/raise-alerts.ts).
import { SUBJECTS } from '@switchboard/events';
import type { TransactionQuery } from '@switchboard/db';
import type { DisableRequest } from '@switchboard/contracts';
import { raiseAlerts } from '../alerts/raise-alerts.ts';
import type { Deps } from '../context.ts';
import type { SubscriptionRef } from '../events/changes.ts';
import { disableIfEnabled } from './repository.ts';
import { enqueueInboundEvent } from '../events/inbound-event.ts';

export type { DisableRequest };

/** Disables the subscriptions that are still enabled; returns those it disabled (for webhooks.changed after the commit). */
export async function disableSubscriptions(
  query: TransactionQuery,
  deps: Pick<Deps, 'schema' | 'publicBaseUrl'>,
  requests: readonly DisableRequest[],
): Promise<SubscriptionRef[]> {
  const refs: SubscriptionRef[] = [];
  for (const d of requests) {
    const rows = await disableIfEnabled(query, deps.schema, d.subscriptionId, d.reason);
    for (const r of rows) {
      const ref = { id: r.id, accountId: String(r.account_id), applicationId: r.application_id };
      const disabledAt = new Date(r.updated_at).toISOString();
      // The envelope of docs/events.md#inbound: the dispatcher validates and fans it out like a CDR event.
      await enqueueInboundEvent(query, deps.schema, SUBJECTS.webhooksDisabled, {
        accountId: ref.accountId,
        applicationId: ref.applicationId,
        timestamp: disabledAt,
        data: {
          subscriptionId: ref.id,
          href: `${deps.publicBaseUrl}/v1/webhooks/${ref.id}`,
          targetUrl: r.target_url,
          reason: d.reason,
          disabledAt,
        },
      });
      // And the webhook.disabled alert, linked to the subscription (one per subscription and minute).
      await raiseAlerts(query, deps.schema, deps.publicBaseUrl, [
        {
          accountId: ref.accountId,
          code: 'webhook.disabled',
          severity: 'error',
          applicationId: ref.applicationId,
          subscriptionId: ref.id,
          sessionId: null,
          deliveryId: null,
          attempt: null,
          message: `The subscription was disabled: ${d.reason}`.slice(0, 4000),
          at: disabledAt,
        },
      ]);
      refs.push(ref);
    }
  }
  return refs;
}

/** A duration as the reason text shows it: "5d", "36h", "2s", "1500ms". */
export function formatDuration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'm'],
    [1000, 's'],
  ];
  const unit = units.find(([size]) => ms >= size && ms % size === 0);
  return unit ? `${ms / unit[0]}${unit[1]}` : `${ms}ms`;
}
