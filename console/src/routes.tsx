// The console's pages by path (under /console/). The first pattern that matches renders.
import type { ComponentType } from 'react';
import { AlertsPage } from './pages/alerts.tsx';
import { ApiKeysPage } from './pages/api-keys.tsx';
import { ApplicationPage } from './pages/application.tsx';
import { ApplicationsPage } from './pages/applications.tsx';
import { AuditLogPage } from './pages/audit-log.tsx';
import { DeliveryPage } from './pages/delivery.tsx';
import { SessionPage } from './pages/session.tsx';
import { SessionsPage } from './pages/sessions.tsx';
import { TriggersPage } from './pages/triggers.tsx';
import { UsagePage } from './pages/usage.tsx';
import { WebhookPage } from './pages/webhook.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { ID_FORMATS, type RouteParams } from './paths.ts';

const { application, webhook, delivery, session } = ID_FORMATS;

/** `ids`: the format of each parameter (paths.ts); a path whose parameter has another is not found. */
export const ROUTES: {
  pattern: string;
  page: ComponentType<{ params: RouteParams }>;
  ids?: Record<string, RegExp>;
}[] = [
  { pattern: '/applications', page: ApplicationsPage },
  { pattern: '/applications/:id', page: ApplicationPage, ids: { id: application } },
  { pattern: '/applications/:appId/webhooks/:id', page: WebhookPage, ids: { appId: application, id: webhook } },
  {
    pattern: '/applications/:appId/deliveries/:deliveryId',
    page: DeliveryPage,
    ids: { appId: application, deliveryId: delivery },
  },
  { pattern: '/webhooks', page: WebhooksPage },
  { pattern: '/webhooks/:id', page: WebhookPage, ids: { id: webhook } },
  { pattern: '/webhooks/:id/deliveries/:deliveryId', page: DeliveryPage, ids: { id: webhook, deliveryId: delivery } },
  { pattern: '/sessions', page: SessionsPage },
  { pattern: '/sessions/:id', page: SessionPage, ids: { id: session } },
  { pattern: '/api-keys', page: ApiKeysPage },
  { pattern: '/audit-log', page: AuditLogPage },
  { pattern: '/alerts', page: AlertsPage },
  { pattern: '/usage', page: UsagePage },
  { pattern: '/triggers', page: TriggersPage },
];

/** The main navigation, in order. */
export const NAV: { to: string; label: string }[] = [
  { to: '/applications', label: 'Applications' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/sessions', label: 'Sessions' },
  { to: '/alerts', label: 'Alerts' },
  { to: '/usage', label: 'Usage' },
  { to: '/triggers', label: 'Triggers' },
  { to: '/api-keys', label: 'API keys' },
  { to: '/audit-log', label: 'Audit log' },
];
