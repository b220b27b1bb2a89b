// The keys of the console's queries, written once: each page reads with them and each change
// invalidates with them. A key that others start with (`applications`, `deliveries`, `stats`, ...)
// invalidates every query under it.
import type { Owner } from './owner.ts';

export const queryKeys = {
  /** The browser's console session (app.tsx, the sign-in). */
  consoleSession: ['console-session'] as const,
  /** Every query of applications' lists: the shared pages (`useApplications`). */
  applications: ['applications'] as const,
  applicationPages: ['applications', 'pages'] as const,
  /** Every query of one application: itself, its addresses, its webhooks. */
  application: (id: string) => ['application', id] as const,
  applicationWebhooks: (id: string) => ['application', id, 'webhooks'] as const,
  addresses: (appId: string) => ['application', appId, 'addresses'] as const,
  /** Every query of any application (an address moved from one to another). */
  anyApplication: ['application'] as const,
  exchanges: ['exchanges'] as const,
  eventTypes: ['event-types'] as const,
  /** Every list of webhooks; `webhookList(appId)`: the account's (no id) or an application's. */
  webhooks: ['webhooks'] as const,
  webhookList: (appId: string | undefined) => ['webhooks', appId ?? 'account'] as const,
  webhook: (id: string) => ['webhook', id] as const,
  /** Every list of deliveries; `deliveriesOf(owner)`: a webhook's or an application's. */
  deliveries: ['deliveries'] as const,
  deliveriesOf: (o: Owner) => ['deliveries', o.kind, o.id] as const,
  deliveryAttempts: (o: Owner, messageId: string | undefined) =>
    ['deliveries', o.kind, o.id, 'message', messageId] as const,
  delivery: (id: string) => ['delivery', id] as const,
  /** Every statistics chart; `statsOf(owner, window)`: one. */
  stats: ['stats'] as const,
  statsOf: (o: Owner, window: string) => ['stats', o.kind, o.id, window] as const,
  recovery: (task: string | undefined) => ['recovery', task] as const,
  alerts: ['alerts'] as const,
  recentAlerts: (appId: string, since: string) => ['alerts', appId, since] as const,
  sessions: (appId: string | undefined) => ['sessions', appId] as const,
  sessionRecord: (id: string) => ['session', id] as const,
  usage: (category: string, period: string) => ['usage', category, period] as const,
  triggers: (kind: 'alert-triggers' | 'usage-triggers') => [kind] as const,
  apiKeys: ['api-keys'] as const,
  auditEvents: ['audit-events'] as const,
};
