// The events one can subscribe to (GET /v1/event-types): each with a description, the resources a
// subscription may name, and the schema of its `data`, the same zod schema the dispatcher validates
// inbound events with. The gateway publishes the JSON Schema of each (z.toJSONSchema).
import { z } from 'zod';
import {
  alertDataSchema,
  alertTriggeredDataSchema,
  cdrEventSchema,
  sessionStatusDataSchema,
  smsDlrEventSchema,
  usageTriggeredDataSchema,
  webhookDisabledDataSchema,
} from './schemas.ts';

export interface EventType {
  name: string;
  description: string;
  /** Resources its events come with; a subscription matches them by listing one, or `all`. */
  resources: readonly string[];
  /** Whether application-level subscriptions may name it. */
  applicationLevel: boolean;
  data: z.ZodType;
}

export const EVENT_TYPES: readonly EventType[] = [
  {
    name: 'smsdlr',
    description: 'A delivery report for an SMS the account sent.',
    resources: ['sms', 'all'],
    applicationLevel: true,
    data: smsDlrEventSchema.shape.data.meta({ description: 'The delivery report, as the telephony core sent it.' }),
  },
  {
    name: 'cdrCreated',
    description: 'A call detail record was created for a call, an SMS or a transcription.',
    resources: ['call', 'sms', 'transcription', 'all'],
    applicationLevel: true,
    data: cdrEventSchema.shape.data.meta({ description: 'The call detail record, as the telephony core sent it.' }),
  },
  {
    name: 'cdrRated',
    description: 'A call detail record was rated.',
    resources: ['call', 'sms', 'transcription', 'all'],
    applicationLevel: true,
    data: cdrEventSchema.shape.data.meta({
      description: 'The rated call detail record, as the telephony core sent it.',
    }),
  },
  {
    name: 'webhookDisabled',
    description:
      'A webhook subscription of the account was disabled: its target answered 410 Gone, or every delivery failed for DELIVERY_DISABLE_AFTER (default 5 days). Account-level subscriptions only, resource `all`; a subscription is never sent the notice of its own disabling.',
    resources: ['all'],
    applicationLevel: false,
    data: webhookDisabledDataSchema.meta({ description: 'The subscription that was disabled, when and why.' }),
  },
  {
    name: 'alert',
    description:
      'An alert was raised (docs/api.md#alerts): the first of its code for its application within a minute (the others of that minute add to its count). Resource `all`; account-level, or for one application.',
    resources: ['all'],
    applicationLevel: true,
    data: alertDataSchema.meta({ description: 'The alert, linked to the attempt that raised it.' }),
  },
  {
    name: 'sessionStatus',
    description:
      "A session changed state: routed, answered, fallback, failed (with its reason), signal, ended. Order one session's events by `sequence`. Resource `all`; account-level, or for one application.",
    resources: ['all'],
    applicationLevel: true,
    data: sessionStatusDataSchema.meta({ description: 'The session, its new state and the attempt behind it.' }),
  },
  {
    name: 'alertTriggered',
    description:
      'An alert trigger of the account reached its threshold (docs/api.md#alert-triggers): once when the alerts matching it within its window reach the threshold, then at most once more per window. Resource `all`; account-level, or for the application the trigger watches.',
    resources: ['all'],
    applicationLevel: true,
    data: alertTriggeredDataSchema.meta({
      description: 'The trigger, and the count of alerts that reached its threshold.',
    }),
  },
  {
    name: 'usageTriggered',
    description:
      "The account's usage of a category reached a usage trigger's threshold (docs/api.md#usage-triggers): within 60 s of the crossing, once per period (UTC day, UTC month, or once ever). Account-level subscriptions only, resource `all`.",
    resources: ['all'],
    applicationLevel: false,
    data: usageTriggeredDataSchema.meta({ description: 'The trigger, its period and the usage counted.' }),
  },
];

/** Names of the subscribable events, in catalogue order. */
export const EVENT_NAMES = EVENT_TYPES.map((e) => e.name);

/** The catalogue as GET /v1/event-types answers it: `data` as JSON Schema (2020-12). */
export function eventTypesJson(): Array<{
  name: string;
  description: string;
  resources: string[];
  applicationLevel: boolean;
  data: Record<string, unknown>;
}> {
  return EVENT_TYPES.map((e) => {
    const { $schema: _, ...data } = z.toJSONSchema(e.data, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    return {
      name: e.name,
      description: e.description,
      resources: [...e.resources],
      applicationLevel: e.applicationLevel,
      data,
    };
  });
}
