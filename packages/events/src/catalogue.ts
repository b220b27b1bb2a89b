// The events one can subscribe to (GET /v1/event-types): each with a description, the resources a
// subscription may name, and the schema of its `data`, the same zod schema the dispatcher validates
// inbound events with. The gateway publishes the JSON Schema of each (z.toJSONSchema).
import { z } from 'zod';
import { cdrEventSchema, smsDlrEventSchema } from './schemas';

/** `data` of a `webhookDisabled` notification (published by the webhooks service on `webhooks.disabled`). */
export const webhookDisabledDataSchema = z
  .object({
    subscriptionId: z.string().min(1).max(200).meta({ description: 'Id of the subscription that was disabled.' }),
    href: z.string().max(4096).meta({ description: 'Its href (GET it with the same credentials).', format: 'uri' }),
    targetUrl: z.string().max(4096).meta({ description: 'Its target URL.' }),
    reason: z.string().max(1000).meta({ description: 'Why: the target answered 410 Gone, or it kept failing for DELIVERY_DISABLE_AFTER.' }),
    disabledAt: z.string().max(64).meta({ description: 'When, ISO 8601 UTC.', format: 'date-time' }),
  })
  .loose();

export interface EventType {
  name: string;
  description: string;
  /** Resources a subscription to it may list (`all` stands for every one). */
  resources: readonly string[];
  /** Whether application-level subscriptions may name it. */
  applicationLevel: boolean;
  data: z.ZodType;
}

export const EVENT_TYPES: readonly EventType[] = [
  {
    name: 'smsdlr',
    description: 'A delivery report for an SMS the account sent (SPEC 6.1).',
    resources: ['sms', 'all'],
    applicationLevel: true,
    data: smsDlrEventSchema.shape.data.meta({ description: 'The delivery report, as the telephony core sent it.' }),
  },
  {
    name: 'cdrCreated',
    description: 'A call detail record was created for a call, an SMS or a transcription (SPEC 6.1).',
    resources: ['call', 'sms', 'transcription', 'all'],
    applicationLevel: true,
    data: cdrEventSchema.shape.data.meta({ description: 'The call detail record, as the telephony core sent it.' }),
  },
  {
    name: 'cdrRated',
    description: 'A call detail record was rated (SPEC 6.1).',
    resources: ['call', 'sms', 'transcription', 'all'],
    applicationLevel: true,
    data: cdrEventSchema.shape.data.meta({ description: 'The rated call detail record, as the telephony core sent it.' }),
  },
  {
    name: 'webhookDisabled',
    description:
      'A webhook subscription of the account was disabled: its target answered 410 Gone, or it kept failing for DELIVERY_DISABLE_AFTER. Account-level subscriptions only, resource `all`.',
    resources: ['all'],
    applicationLevel: false,
    data: webhookDisabledDataSchema,
  },
];

/** Names of the subscribable events, in catalogue order. */
export const EVENT_NAMES = EVENT_TYPES.map((e) => e.name);

/** The catalogue as GET /v1/event-types answers it: `data` as JSON Schema (2020-12). */
export function eventTypesJson(): Array<{ name: string; description: string; resources: string[]; applicationLevel: boolean; data: Record<string, unknown> }> {
  return EVENT_TYPES.map((e) => {
    const { $schema: _, ...data } = z.toJSONSchema(e.data, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    return { name: e.name, description: e.description, resources: [...e.resources], applicationLevel: e.applicationLevel, data };
  });
}
