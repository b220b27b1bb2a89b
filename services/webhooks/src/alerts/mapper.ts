import type { Alert } from '@switchboard/proto/generated/switchboard/webhooks/v1/Alert';
import type { AlertRow } from './repository.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

export function toMessage(r: AlertRow): Alert {
  return {
    id: r.id,
    code: r.code,
    severity: r.severity,
    at: iso(r.at),
    lastAt: iso(r.last_at),
    count: r.count,
    applicationId: r.application_id || undefined,
    subscriptionId: r.subscription_id ?? undefined,
    sessionId: r.session_id ?? undefined,
    deliveryId: r.delivery_id ?? undefined,
    attempt: r.attempt ?? undefined,
    message: r.message,
  };
}
