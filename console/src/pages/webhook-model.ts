// What the console does with webhooks beyond showing them (docs/api.md#webhook-subscriptions).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { body, client, type Schemas, type Webhook } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';

/** A subscription's name as the console shows it. */
export const webhookName = (w: Webhook) => w.name || `${w.event} → ${w.targetUrl}`;

/** The last segment of an href: the id it names. */
export const idOf = (href: string) => href.split('?')[0]!.split('/').pop()!;

/**
 * Changing a webhook: the fields given (its settings, `enabled`), the others as they are; its page
 * and the lists of webhooks follow, then `onDone`.
 */
export function useWebhookUpdate(id: string, onDone?: () => void) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (changes: Record<string, unknown>) =>
      body(client.PUT('/v1/webhooks/{id}', { params: { path: { id } }, body: changes as Schemas['WebhookUpdate'] })),
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: queryKeys.webhook(id) });
      await queries.invalidateQueries({ queryKey: queryKeys.webhooks });
      onDone?.();
    },
  });
}
