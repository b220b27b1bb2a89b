// The shape of a session record as the dispatchers send it (@switchboard/contracts SessionRecord),
// checked before it is stored: a record that does not fit is dropped, never retried.
import { z } from 'zod';
import type { SessionRecord } from '@switchboard/contracts';

const text = (max: number) => z.string().max(max);
const time = z.iso.datetime({ offset: true });

const attempt = z.object({
  at: time,
  url: text(10_000).nullable(),
  role: z.enum(['primary', 'fallback']),
  status: z.number().int().min(0).max(999),
  durationMs: z.number().int().min(0).max(2_147_483_647),
  error: text(2000).nullable(),
  responseContentType: text(1000).nullable(),
  responseExcerpt: text(8192).nullable(),
  responseTruncated: z.boolean(),
});

export const sessionRecordSchema = z.object({
  id: text(200).min(1),
  applicationId: text(100).nullable(),
  accountId: z.string().regex(/^\d{1,18}$/),
  channel: z.enum(['VOICE', 'TEXT']),
  from: text(1000).nullable(),
  to: text(1000).nullable(),
  startedAt: time,
  routedBy: z.object({ type: z.enum(['application', 'address', 'token']), value: text(1000).nullable() }),
  outcome: z.enum(['answered', 'fallback', 'failed']),
  attempts: z.array(attempt).max(100),
  instructions: z
    .object({ at: time, bytes: z.number().int().min(0), excerpt: text(8192), truncated: z.boolean() })
    .nullable(),
  failure: z.object({ reason: text(100) }).nullable(),
  statusCallbackUrl: text(2048).nullish(),
}) satisfies z.ZodType<SessionRecord, unknown>;

/** The signal the Session API publishes on sessions.signal. */
export const signalSchema = z.object({ sessionId: text(400).min(1), value: text(1000) });
