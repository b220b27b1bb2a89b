// The bodies the dispatcher POSTs (docs/events.md#signatures). Built once per delivery job, so every retry
// sends the same bytes.
import type { NotificationEventIn, SessionIn, SessionNewEvent, WebhookEvent } from '../events/schemas.ts';

export type Channel = 'VOICE' | 'TEXT';

export interface SessionEndpoint {
  id: string | null;
  e164Id: string | null;
  name: string;
  channel: Channel | null;
  network: string | null;
  [extra: string]: unknown;
}

/** docs/events.md#session-post session object with every key present, plus the WebAPI keys existing libraries read. */
export interface SessionBody {
  id: string | null;
  accountId: string | null;
  /** Always set in what is sent: a session no application owns is never POSTed. */
  applicationId: string | null;
  callId: string | null;
  timestamp: string;
  userType: 'HUMAN' | 'MACHINE' | 'FAX' | 'NONE' | null;
  initialText: string | null;
  from: SessionEndpoint;
  to: SessionEndpoint;
  headers: Record<string, unknown>;
  parameters: Record<string, unknown>;
  [extra: string]: unknown;
}

/** The channel that decides between voiceUrl and messagingUrl. */
export function sessionChannel(session: SessionIn): Channel {
  return session.from?.channel ?? session.to?.channel ?? (typeof session.initialText === 'string' ? 'TEXT' : 'VOICE');
}

function endpoint(e: SessionIn['from'], channel: Channel): SessionEndpoint {
  const { id, e164Id, name, channel: ch, network, ...extra } = e ?? {};
  return {
    ...extra,
    id: id ?? null,
    // WebAPI libraries read e164Id; the telephony core sends the normalised number when it has one.
    e164Id: e164Id ?? id ?? null,
    // docs/events.md#session-post: the literal "unknown" when no name is known.
    name: name ?? 'unknown',
    channel: ch ?? channel,
    network: network ?? null,
  };
}

/** ISO 8601 UTC with a Z. */
function isoUtc(value: string | Date): string {
  return (typeof value === 'string' ? new Date(value) : value).toISOString();
}

/**
 * `{"session": {...}}` for one sessions.new event. `accountId` of the event wins; otherwise the
 * application's. `receivedAt` (when JetStream stored the event) stands in for a missing timestamp.
 */
export function buildSessionBody(
  event: SessionNewEvent,
  applicationAccountId: string | null,
  receivedAt: Date,
): { session: SessionBody } {
  const s = event.session;
  const channel = sessionChannel(s);
  const {
    id,
    accountId,
    callId,
    from,
    to,
    headers,
    parameters,
    initialText,
    timestamp,
    userType,
    applicationId: _ignored,
    ...extra
  } = s;
  const session: SessionBody = {
    ...extra,
    id: id ?? null,
    accountId: accountId ?? applicationAccountId ?? null,
    applicationId: event.applicationId ?? null,
    callId: callId ?? null,
    timestamp: isoUtc(timestamp ?? receivedAt),
    userType: userType ?? null,
    initialText: initialText ?? null,
    from: endpoint(from, channel),
    to: endpoint(to, channel),
    headers: headers ?? {},
    parameters: parameters ?? {},
  };
  return { session };
}

export interface NotificationBody {
  id: string;
  name: string | null;
  event: WebhookEvent;
  resource: string;
  timestamp: string;
  accountId: string;
  applicationId: string | null;
  data: Record<string, unknown>;
  payload: unknown;
  /** Ordered subscriptions only, when true: the delivery before this one of its key ended failed. */
  previousFailed?: true;
}

/** The body sent to a subscription's targetUrl; `payload` is the subscription's, null when it has none. */
export function buildNotificationBody(
  webhookEvent: WebhookEvent,
  event: NotificationEventIn,
  subscription: { name: string | null; payload: unknown },
): NotificationBody {
  return {
    id: event.id,
    name: subscription.name,
    event: webhookEvent,
    resource: event.resource,
    timestamp: isoUtc(event.timestamp),
    accountId: event.accountId,
    applicationId: event.applicationId,
    data: event.data,
    payload: subscription.payload ?? null,
  };
}

/** The body of a test send: the notification envelope with event and resource `test`, `data` `{message}`. */
export function buildTestBody(
  id: string,
  subscription: { name: string | null; payload: unknown; accountId: string; applicationId: string | null },
  message: string,
  now: Date,
): Omit<NotificationBody, 'event'> & { event: 'test' } {
  return {
    id,
    name: subscription.name,
    event: 'test',
    resource: 'test',
    timestamp: now.toISOString(),
    accountId: subscription.accountId,
    applicationId: subscription.applicationId,
    data: { message },
    payload: subscription.payload ?? null,
  };
}
