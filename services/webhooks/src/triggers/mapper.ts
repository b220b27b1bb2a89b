import type { AlertTrigger } from '@switchboard/proto/generated/switchboard/webhooks/v1/AlertTrigger';
import type { UsageTrigger } from '@switchboard/proto/generated/switchboard/webhooks/v1/UsageTrigger';
import type { AlertTriggerRow, UsageTriggerRow } from './repository.ts';
import { windowText } from './rules.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

export function alertTriggerMessage(r: AlertTriggerRow): AlertTrigger {
  return {
    id: r.id,
    code: r.code,
    applicationId: r.application_id ?? undefined,
    threshold: r.threshold,
    window: windowText(r.window_seconds),
    windowSeconds: r.window_seconds,
    createdAt: iso(r.created_at),
    lastFiredAt: r.fired_at ? iso(r.fired_at) : undefined,
    firedCount: r.fired_count,
  };
}

export function usageTriggerMessage(r: UsageTriggerRow): UsageTrigger {
  return {
    id: r.id,
    category: r.category,
    threshold: r.threshold,
    recurring: r.recurring,
    createdAt: iso(r.created_at),
    lastFiredAt: r.fired_at ? iso(r.fired_at) : undefined,
    lastFiredPeriod: r.fired_period ?? undefined,
  };
}
