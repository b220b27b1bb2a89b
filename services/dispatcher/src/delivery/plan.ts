// Where and what a job sends, read from the current application (sessions) or subscription
// (notifications). A lookup that fails because its service is away is thrown as it is: the caller
// decides with isLookupUnavailable (lookup/lookups.ts).
import { isStatusCallback, type NotificationJob, type SentFields, type SessionJob } from '../jobs.ts';
import type { Lookups, SubscriptionTarget } from '../lookup/lookups.ts';
import { EVENT_OF_SUBJECT } from '../events/schemas.ts';
import type { RecordBase } from '../recording/attempt-record.ts';
import { buildNotificationBody, buildSessionBody, sessionChannel, type Channel } from './bodies.ts';
import type { SessionReason } from './policies/session.ts';
import type { SubscriptionSettings } from './subscription-settings.ts';

/** What a notification job resolved to: an HTTP attempt, an outcome recorded without one, or nothing to do. */
export type Plan =
  | {
      kind: 'send';
      url: string;
      body: string;
      keys: Buffer[];
      headers?: Record<string, string>;
      /** The subscription's delivery settings (notifications). */
      settings?: SubscriptionSettings;
      record: RecordBase;
      subscriptionId: string | null;
      sent?: SentFields;
    }
  | { kind: 'end'; outcome: 'failed' | 'cancelled'; reason: string; record: RecordBase }
  | { kind: 'skip'; reason: string };

/** Where a session goes: its URLs (primary, then fallback) and the application's keys; or why it cannot go anywhere. */
export type SessionPlan = { channel: Channel; accountId: string | null; record: RecordBase } & (
  | {
      kind: 'send';
      applicationId: string;
      primary: string | null;
      fallback: string | null;
      body: string;
      keys: Buffer[];
    }
  | { kind: 'end'; reason: SessionReason; error: string }
);

export interface PlanDeps {
  lookups: Lookups;
}

/**
 * `matched`: the subscription fan-out matched for this job's first attempt, used as it is instead
 * of being looked up again; retries (which may run hours later) read it afresh.
 */
export function planJob(job: NotificationJob, deps: PlanDeps, matched?: SubscriptionTarget): Promise<Plan> {
  return planNotification(job, deps, matched);
}

/** The application's URL for the session's channel and its fallback, signed with the application's own secrets. */
export async function planSession(job: SessionJob, deps: PlanDeps): Promise<SessionPlan> {
  const e = job.event;
  // Routing found no owner for the address the session was dialled at (lookup/route-session.ts).
  if (!e.applicationId)
    return sessionEnd(
      job,
      null,
      'unknown_address',
      `no application owns the address ${e.session.to?.id ?? ''}`.slice(0, 500),
    );
  const app = await deps.lookups.application(e.applicationId);
  const end = (reason: SessionReason, error: string) => sessionEnd(job, app?.accountId ?? null, reason, error);
  if (!app) return end('application_not_found', `application ${e.applicationId} not found`);
  const session = sessionContext(job, app.accountId);
  const channel = session.channel;
  const [field, fallbackField] =
    channel === 'VOICE'
      ? (['voiceUrl', 'voiceFallbackUrl'] as const)
      : (['messagingUrl', 'messagingFallbackUrl'] as const);
  const primary = app[field];
  const fallback = app[fallbackField];
  if (!primary && !fallback)
    return end('no_url', `application has no ${field} (nor ${fallbackField}) for ${channel} sessions`);
  // Signed with the application's own secrets or not sent at all: never with another key.
  if (app.keys.length === 0) return end('no_secret', 'application has no session signing secret');
  const body = JSON.stringify(buildSessionBody(e, app.accountId, new Date(job.receivedAt)));
  return { kind: 'send', ...session, applicationId: app.id, primary, fallback, body, keys: app.keys };
}

/** A session that goes nowhere, and why. `applicationAccountId`: the application's account, when it was found. */
export function sessionEnd(
  job: SessionJob,
  applicationAccountId: string | null,
  reason: SessionReason,
  error: string,
): SessionPlan {
  return { kind: 'end', ...sessionContext(job, applicationAccountId), reason, error };
}

/** The session's channel, its account (the event's, else the application's) and what its records say. */
function sessionContext(
  job: SessionJob,
  applicationAccountId: string | null,
): { channel: Channel; accountId: string | null; record: RecordBase } {
  const e = job.event;
  const accountId = e.session.accountId ?? applicationAccountId;
  // applicationId '' (no application): the session has nobody's delivery log to be recorded in.
  const record: RecordBase = {
    subscriptionId: '',
    applicationId: e.applicationId ?? '',
    accountId: accountId ?? '0',
    event: 'session',
    targetUrl: '',
  };
  return { channel: sessionChannel(e.session), accountId, record };
}

async function planNotification(
  job: NotificationJob,
  deps: PlanDeps,
  matched: SubscriptionTarget | undefined,
): Promise<Plan> {
  if (isStatusCallback(job)) return planStatusCallback(job, deps);
  const e = job.event;
  const webhookEvent = EVENT_OF_SUBJECT[job.subject];
  const sub =
    matched?.id === job.subscriptionId
      ? matched
      : (
          await deps.lookups.subscriptions({
            accountId: e.accountId,
            applicationId: e.applicationId,
            event: webhookEvent,
            resource: e.resource,
          })
        ).find((s) => s.id === job.subscriptionId);
  if (!sub) {
    // A retry whose subscription was disabled, or edited so the event no longer matches: its
    // delivery log ends with why, instead of with an attempt that says "retrying". A deleted
    // subscription's log is gone with it: nothing to record.
    const still = job.attempt > 1 ? await deps.lookups.currentSubscription(e.accountId, job.subscriptionId) : null;
    if (!still) return { kind: 'skip', reason: 'subscription_gone' };
    const reason = still.enabled
      ? 'not retried: the subscription no longer matches this event'
      : 'not retried: the subscription is disabled';
    const record: RecordBase = {
      subscriptionId: job.subscriptionId,
      applicationId: still.applicationId ?? e.applicationId ?? '',
      accountId: e.accountId,
      event: webhookEvent,
      targetUrl: still.targetUrl,
    };
    return { kind: 'end', outcome: 'cancelled', reason, record };
  }
  const sent: SentFields = job.sent ?? { name: sub.name, payload: sub.payload ?? null };
  const built = buildNotificationBody(webhookEvent, e, sent);
  // Ordered by key (ordering.ts): the delivery before this one of its key ended failed.
  const body = JSON.stringify(job.ordering?.pf ? Object.assign(built, { previousFailed: true }) : built);
  const seq = job.ordering?.seq;
  return {
    kind: 'send',
    url: sub.targetUrl,
    body,
    keys: sub.keys,
    headers: seq === undefined ? sub.headers : Object.assign({}, sub.headers, { 'webhook-sequence': String(seq) }),
    settings: sub.settings,
    subscriptionId: sub.id,
    sent,
    record: {
      subscriptionId: sub.id,
      applicationId: e.applicationId ?? '',
      accountId: e.accountId,
      event: webhookEvent,
      targetUrl: sub.targetUrl,
      // Kept with the first record of the message, for resends (the same bytes on every attempt).
      ...(job.attempt === 1 ? { body } : {}),
    },
  };
}

/** What a status callback sends: nothing of a subscription (no name, no payload). */
const CALLBACK_SENT: SentFields = { name: null, payload: null };

/**
 * A sessionStatus event to the statusCallbackUrl its session was launched with (docs/events.md#status-callback):
 * signed with the application's secrets, as its session POSTs are, and recorded in the application's
 * delivery log (kind `session`, event `sessionStatus`). A deleted application's callbacks are not sent.
 */
async function planStatusCallback(job: NotificationJob, deps: PlanDeps): Promise<Plan> {
  const e = job.event;
  const url = 'statusCallbackUrl' in e ? e.statusCallbackUrl : undefined;
  if (!url || !e.applicationId) return { kind: 'skip', reason: 'no_status_callback' };
  const app = await deps.lookups.application(e.applicationId);
  if (!app || app.accountId !== e.accountId) return { kind: 'skip', reason: 'application_gone' };
  const record: RecordBase = {
    kind: 'session',
    subscriptionId: '',
    applicationId: app.id,
    accountId: e.accountId,
    event: 'sessionStatus',
    targetUrl: url,
  };
  // Signed with the application's own secrets or not sent at all: never with another key.
  if (app.keys.length === 0)
    return { kind: 'end', outcome: 'failed', reason: 'no_secret: the application has no signing secret', record };
  const body = JSON.stringify(buildNotificationBody('sessionStatus', e, CALLBACK_SENT));
  return {
    kind: 'send',
    url,
    body,
    keys: app.keys,
    subscriptionId: null,
    sent: CALLBACK_SENT,
    record: { ...record, ...(job.attempt === 1 ? { body } : {}) },
  };
}
