// Schemas of the inbound events of CONTRACTS 4. A message that fails them is terminated.
import { z } from 'zod';

/** An id that producers may send as a JSON number (int64 in the proto JSON mapping is a string). */
const idString = z.union([z.string().min(1).max(200), z.number().int().nonnegative()]).transform(String);

/** An account id: numeric (accounts are numbered), as a string or a number. */
const accountId = z
  .union([z.string().regex(/^\d{1,19}$/, 'must be a numeric account id'), z.number().int().nonnegative()])
  .transform(String);

const isoTimestamp = z
  .string()
  .max(64)
  .refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 timestamp');

const upperEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(values));

const endpoint = z
  .object({
    id: z.string().max(1000).nullish(),
    e164Id: z.string().max(1000).nullish(),
    name: z.string().max(1000).nullish(),
    channel: upperEnum(['VOICE', 'TEXT']).nullish(),
    network: z.string().max(100).nullish(),
  })
  .loose();

/** The SPEC 6.2 session object as the telephony core sends it; every key optional. */
const sessionSchema = z
  .object({
    id: z.string().max(200).nullish(),
    accountId: accountId.nullish(),
    callId: z.string().max(200).nullish(),
    from: endpoint.nullish(),
    to: endpoint.nullish(),
    headers: z.record(z.string(), z.unknown()).nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
    initialText: z.string().max(100_000).nullish(),
    timestamp: isoTimestamp.nullish(),
    userType: upperEnum(['HUMAN', 'MACHINE', 'FAX']).nullish(),
  })
  .loose();

export type SessionIn = z.output<typeof sessionSchema>;

/** Subject sessions.new. */
export const sessionNewSchema = z.object({
  applicationId: idString,
  session: sessionSchema,
});
export type SessionNewEvent = z.output<typeof sessionNewSchema>;

export const RESOURCES = ['call', 'sms', 'transcription'] as const;
export type Resource = (typeof RESOURCES)[number];

const notificationBase = {
  id: idString,
  accountId,
  applicationId: z
    .union([idString, z.literal(''), z.null()])
    .optional()
    .transform((v) => (v ? v : null)),
  timestamp: isoTimestamp,
  data: z.record(z.string(), z.unknown()),
};

/** Subjects cdr.created and cdr.rated. */
export const cdrEventSchema = z.object({ ...notificationBase, resource: z.enum(RESOURCES) });
/** Subject sms.dlr: the same envelope; the resource is always "sms". */
export const smsDlrEventSchema = z.object({ ...notificationBase, resource: z.literal('sms').default('sms') });

export type NotificationEventIn = z.output<typeof cdrEventSchema>;

/** Webhook event name (SPEC 6.1) of each notification subject. */
export const EVENT_OF_SUBJECT = {
  'cdr.created': 'cdrCreated',
  'cdr.rated': 'cdrRated',
  'sms.dlr': 'smsdlr',
} as const;
export type NotificationSubject = keyof typeof EVENT_OF_SUBJECT;
export type WebhookEvent = (typeof EVENT_OF_SUBJECT)[NotificationSubject];

function isNotificationSubject(subject: string): subject is NotificationSubject {
  return subject in EVENT_OF_SUBJECT;
}

export type ParsedEvent =
  | { kind: 'session'; event: SessionNewEvent }
  | { kind: 'notification'; subject: NotificationSubject; webhookEvent: WebhookEvent; event: NotificationEventIn };

export class InvalidEventError extends Error {
  constructor(
    message: string,
    readonly subject: string,
  ) {
    super(message);
    this.name = 'InvalidEventError';
  }
}

/** Parses and validates the body of an inbound event; throws InvalidEventError when it is malformed. */
export function parseEvent(subject: string, data: Uint8Array | string): ParsedEvent {
  let json: unknown;
  try {
    json = JSON.parse(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
  } catch {
    throw new InvalidEventError('body is not valid JSON', subject);
  }
  const fail = (err: z.ZodError) =>
    new InvalidEventError(err.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '), subject);
  if (subject === 'sessions.new') {
    const r = sessionNewSchema.safeParse(json);
    if (!r.success) throw fail(r.error);
    return { kind: 'session', event: r.data };
  }
  if (isNotificationSubject(subject)) {
    const r = (subject === 'sms.dlr' ? smsDlrEventSchema : cdrEventSchema).safeParse(json);
    if (!r.success) throw fail(r.error);
    return { kind: 'notification', subject, webhookEvent: EVENT_OF_SUBJECT[subject], event: r.data };
  }
  throw new InvalidEventError(`unknown subject ${subject}`, subject);
}
