// What the console does with webhooks beyond showing them (docs/api.md#webhook-subscriptions).
import { body, client, type Schemas, type Webhook } from '../api.ts';

/** A subscription's name as the console shows it. */
export const webhookName = (w: Webhook) => w.name || `${w.event} → ${w.targetUrl}`;

/** The last segment of an href: the id it names. */
export const idOf = (href: string) => href.split('?')[0]!.split('/').pop()!;

/** Changes a webhook: the fields given (its settings, `enabled`), the others as they are. */
export const updateWebhook = (id: string, changes: Record<string, unknown>) =>
  body(client.PUT('/v1/webhooks/{id}', { params: { path: { id } }, body: changes as Schemas['WebhookUpdate'] }));
