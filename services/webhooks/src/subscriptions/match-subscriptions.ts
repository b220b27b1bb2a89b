import type { FieldError } from '@switchboard/errors';
import type { MatchSubscriptionsRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/MatchSubscriptionsRequest';
import type { Deps } from '../context.ts';
import {
  SubscriptionSchema,
  SubscriptionSecretSchema,
  type Subscription,
  type SubscriptionSecret,
} from '../db/entities.ts';
import { requireAccount } from './repository.ts';
import { type DeliverySettings, openSettings } from './delivery-settings.ts';
import { ALL, checkEvent, openHeaders, RESOURCES, throwIfAny } from './rules.ts';

export interface Match {
  subscription: Subscription;
  /** The current secret first, then the previous one while it is still valid. */
  secrets: string[];
  /** The custom headers to send, every value opened. */
  headers: Record<string, string>;
  /** The delivery settings, secrets opened. */
  settings: DeliverySettings;
  /** Recoveries of it cancelled within a day (GetDeliveryTarget only: resends read it). */
  cancelledRecoveries?: string[];
}

/**
 * Every enabled subscription that an event must reach (docs/events.md#signatures): the account's account-level
 * subscriptions plus, when the event names an application, that application's subscriptions;
 * same event; resource list containing the event's resource, or `all` (an event whose resource is
 * `all` matches the subscriptions to `all`).
 */
export async function matchSubscriptions(deps: Deps, req: MatchSubscriptionsRequest__Output): Promise<Match[]> {
  const accountId = requireAccount(req.accountId);
  const errors: FieldError[] = [];
  const event = checkEvent(req.event, errors);
  const resource = req.resource.trim().toLowerCase();
  // `all`: an event about the account rather than a resource (webhookDisabled); it matches subscriptions to `all`.
  if (![...RESOURCES, ALL].includes(resource))
    errors.push({ field: 'resource', message: `must be one of ${[...RESOURCES, ALL].join(', ')}` });
  throwIfAny(errors);

  const em = deps.orm.em.fork();
  const subs = await em.find(
    SubscriptionSchema,
    {
      accountId,
      enabled: true,
      event: event!,
      resource: { $re: `(^|,)(${resource}|${ALL})(,|$)` },
      $or: req.applicationId
        ? [{ applicationId: null }, { applicationId: req.applicationId }]
        : [{ applicationId: null }],
    },
    { orderBy: { seq: 'asc' } },
  );
  if (subs.length === 0) return [];
  const secrets = await em.find(SubscriptionSecretSchema, { subscriptionId: { $in: subs.map((s) => s.id) } });
  const byId = new Map(secrets.map((s) => [s.subscriptionId, s]));
  return subs.flatMap((subscription) => {
    const k = byId.get(subscription.id);
    return k ? [toMatch(deps, subscription, k)] : [];
  });
}

/** A subscription with its valid secrets (current first) and its headers opened. */
export function toMatch(
  deps: Pick<Deps, 'secrets'>,
  subscription: Subscription,
  k: SubscriptionSecret,
  now = Date.now(),
): Match {
  const secrets = [deps.secrets.open(k.secret, k.subscriptionId)];
  if (k.previousSecret && k.previousExpiresAt && k.previousExpiresAt.getTime() > now)
    secrets.push(deps.secrets.open(k.previousSecret, k.subscriptionId));
  return {
    subscription,
    secrets,
    headers: openHeaders(subscription.headers, deps.secrets, subscription.id),
    settings: openSettings(subscription.settings ?? {}, deps.secrets, subscription.id),
  };
}
