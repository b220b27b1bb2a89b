// The bodies of alert triggers, usage and usage triggers (docs/api.md#alert-triggers, #usage,
// #usage-triggers), as zod schemas: the gateway checks requests with them, the serialisers return
// them and the OpenAPI document publishes them.
import { z } from 'zod';
import { ALERT_CODES, USAGE_CATEGORIES, USAGE_RECURRENCES } from '@switchboard/events';

const uri = z.string().meta({ format: 'uri' });
const dateTime = z.string().meta({ format: 'date-time' });
const text = (max: number, meta: Record<string, unknown> = {}) =>
  z
    .string({ error: 'must be a string' })
    .max(max, { error: `must be at most ${max} characters` })
    .meta(meta)
    .nullish();
const bounded = (max: number, meta: Record<string, unknown>) =>
  z
    .int({ error: 'must be an integer' })
    .min(1, { error: `must be an integer from 1 to ${max}` })
    .max(max, { error: `must be an integer from 1 to ${max}` })
    .meta(meta)
    .nullish();

/** Largest thresholds (the webhooks service's ALERT_THRESHOLD_MAX and USAGE_THRESHOLD_MAX). */
export const ALERT_THRESHOLD_MAX = 1_000_000;
export const USAGE_THRESHOLD_MAX = 1_000_000_000_000;

export const alertTriggerCreate = z
  .object({
    code: text(64, {
      enum: ['*', ...ALERT_CODES],
      description: 'The alert code to count, or `*` for every code. Required.',
    }),
    applicationId: text(64, {
      description: 'Only alerts of this application of the account; absent: every application.',
    }),
    threshold: bounded(ALERT_THRESHOLD_MAX, {
      minimum: 1,
      maximum: ALERT_THRESHOLD_MAX,
      description: 'How many matching alerts within the window fire it. Required.',
    }),
    window: text(16, {
      examples: ['1m', '15m', '1h', '24h'],
      description: 'The window counted, `1m` to `24h` in whole minutes (`s`, `m` or `h`). Required.',
    }),
  })
  .meta({ description: 'Unknown fields are ignored; null means "not given".' });

export const usageTriggerCreate = z
  .object({
    category: text(64, { enum: [...USAGE_CATEGORIES], description: 'The usage category to watch. Required.' }),
    threshold: bounded(USAGE_THRESHOLD_MAX, {
      minimum: 1,
      maximum: USAGE_THRESHOLD_MAX,
      description: 'The usage in the period that fires it. Required.',
    }),
    recurring: text(16, {
      enum: [...USAGE_RECURRENCES],
      description:
        '`daily` (per UTC day), `monthly` (per UTC month) or `none` (the default: once, counting from its creation).',
    }),
  })
  .meta({ description: 'Unknown fields are ignored; null means "not given".' });

export const alertTriggerBody = z.object({
  href: uri,
  id: z.string(),
  code: z.union([z.enum(ALERT_CODES), z.literal('*')]),
  applicationId: z.string().nullable(),
  threshold: z.int().min(1),
  window: z.string().meta({ examples: ['5m', '1h'] }),
  createdAt: dateTime,
  lastFiredAt: dateTime
    .nullable()
    .meta({ description: 'The time of the alert that last reached the threshold; null: never fired.' }),
  firedCount: z.int().min(0).meta({ description: 'How many alertTriggered notifications it has sent.' }),
});
export type AlertTriggerBody = z.output<typeof alertTriggerBody>;

export const usageTriggerBody = z.object({
  href: uri,
  id: z.string(),
  category: z.enum(USAGE_CATEGORIES),
  threshold: z.int().min(1),
  recurring: z.enum(USAGE_RECURRENCES),
  createdAt: dateTime,
  lastFiredAt: dateTime.nullable().meta({ description: 'When it last fired; null: never.' }),
  lastFiredPeriod: z
    .string()
    .nullable()
    .meta({ format: 'date', description: 'The first day (UTC) of the period it last fired in; null: never.' }),
});
export type UsageTriggerBody = z.output<typeof usageTriggerBody>;

export const usageBody = z.object({
  category: z.enum(USAGE_CATEGORIES),
  period: z.enum(['day', 'month']),
  since: z.string().meta({ format: 'date', description: 'First day of the window (UTC), inclusive.' }),
  until: z.string().meta({ format: 'date', description: 'Day after the window (UTC), exclusive.' }),
  applicationId: z.string().nullable(),
  usage: z
    .array(
      z.object({
        start: z.string().meta({ format: 'date', description: "The period's first day (UTC)." }),
        count: z.int().min(0),
      }),
    )
    .meta({ description: 'Every period of the window, oldest first, zeros included.' }),
  total: z.int().min(0),
});
export type UsageBody = z.output<typeof usageBody>;
