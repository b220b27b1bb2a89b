// The alert bodies (docs/api.md#alerts), as zod schemas the serialisers return and the OpenAPI
// document publishes (see response-bodies.ts).
import { z } from 'zod';
import { ALERT_CODES, ALERT_SEVERITIES } from '@switchboard/events';

const uri = z.string().meta({ format: 'uri' });
const dateTime = z.string().meta({ format: 'date-time' });

export const alertBody = z.object({
  href: uri,
  id: z.string(),
  code: z.enum(ALERT_CODES),
  severity: z.enum(ALERT_SEVERITIES),
  at: dateTime.meta({ description: 'When the first alert folded into this one happened.' }),
  lastAt: dateTime.meta({ description: 'When the last one happened.' }),
  count: z
    .int()
    .min(1)
    .meta({ description: 'Alerts of this code and application within this minute, stored as this one.' }),
  applicationId: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  sessionId: z.string().nullable(),
  deliveryId: z.string().nullable(),
  message: z.string(),
  link: uri.nullable().meta({
    description: "The console's view of the exact attempt (session inspector, `#attempt-N`), or of the delivery.",
  }),
  session: uri.nullable().meta({ description: "The session's record (`GET /v1/sessions/{id}`), when of a session." }),
});

export type AlertBody = z.output<typeof alertBody>;
