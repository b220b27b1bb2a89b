// Where and what a job sends, read from the current application (sessions) or subscription
// (notifications). A lookup that fails because its service is away is thrown as it is: the caller
// decides with isLookupUnavailable (lookup/lookups.ts).
import type { Job, NotificationJob, SentFields, SessionJob } from '../jobs';
import type { Lookups, SubscriptionTarget } from '../lookup/lookups';
import { EVENT_OF_SUBJECT } from '../events/schemas';
import type { RecordBase } from '../recording/attempt-record';
import { buildNotificationBody, buildSessionBody, sessionChannel } from './bodies';


/** What the job resolved to: an HTTP attempt, an outcome recorded without one, or nothing to do. */
export type Plan =
  | { kind: 'send'; url: string; body: string; keys: Buffer[]; headers?: Record<string, string>; record: RecordBase; subscriptionId: string | null; sent?: SentFields }
  | { kind: 'end'; outcome: 'failed' | 'cancelled'; reason: string; record: RecordBase }
  | { kind: 'skip'; reason: string };

export interface PlanDeps {
  lookups: Lookups;
  /** HMAC keys that sign session POSTs. */
  sessionKeys: Buffer[];
}

/**
 * `matched`: the subscription fan-out matched for this job's first attempt, used as it is instead
 * of being looked up again; retries (which may run hours later) read it afresh.
 */
export function planJob(job: Job, deps: PlanDeps, matched?: SubscriptionTarget): Promise<Plan> {
  return job.kind === 'session' ? planSession(job, deps) : planNotification(job, deps, matched);
}

async function planSession(job: SessionJob, deps: PlanDeps): Promise<Plan> {
  const e = job.event;
  const app = await deps.lookups.application(e.applicationId);
  const channel = sessionChannel(e.session);
  const accountId = e.session.accountId ?? app?.accountId ?? '0';
  const record: RecordBase = { subscriptionId: '', applicationId: e.applicationId, accountId, event: 'session', targetUrl: '' };
  if (!app) return { kind: 'end', outcome: 'failed', reason: `application ${e.applicationId} not found`, record };
  const url = channel === 'VOICE' ? app.voiceUrl : app.messagingUrl;
  if (!url) return { kind: 'end', outcome: 'failed', reason: `application has no ${channel === 'VOICE' ? 'voiceUrl' : 'messagingUrl'} for ${channel} sessions`, record };
  const body = JSON.stringify(buildSessionBody(e, app.accountId, new Date(job.receivedAt)));
  return { kind: 'send', url, body, keys: deps.sessionKeys, record: { ...record, targetUrl: url }, subscriptionId: null };
}

async function planNotification(job: NotificationJob, deps: PlanDeps, matched: SubscriptionTarget | undefined): Promise<Plan> {
  const e = job.event;
  const webhookEvent = EVENT_OF_SUBJECT[job.subject];
  const sub =
    matched?.id === job.subscriptionId
      ? matched
      : (await deps.lookups.subscriptions({ accountId: e.accountId, applicationId: e.applicationId, event: webhookEvent, resource: e.resource })).find((s) => s.id === job.subscriptionId);
  if (!sub) {
    // A retry whose subscription was disabled, or edited so the event no longer matches: its
    // delivery log ends with why, instead of with an attempt that says "retrying". A deleted
    // subscription's log is gone with it: nothing to record.
    const still = job.attempt > 1 ? await deps.lookups.currentSubscription(e.accountId, job.subscriptionId) : null;
    if (!still) return { kind: 'skip', reason: 'subscription_gone' };
    const reason = still.enabled ? 'not retried: the subscription no longer matches this event' : 'not retried: the subscription is disabled';
    const record: RecordBase = { subscriptionId: job.subscriptionId, applicationId: still.applicationId ?? e.applicationId ?? '', accountId: e.accountId, event: webhookEvent, targetUrl: still.targetUrl };
    return { kind: 'end', outcome: 'cancelled', reason, record };
  }
  const sent: SentFields = job.sent ?? { name: sub.name, payload: sub.payload ?? null };
  const body = JSON.stringify(buildNotificationBody(webhookEvent, e, sent));
  return {
    kind: 'send',
    url: sub.targetUrl,
    body,
    keys: sub.keys,
    headers: sub.headers,
    subscriptionId: sub.id,
    sent,
    record: { subscriptionId: sub.id, applicationId: e.applicationId ?? '', accountId: e.accountId, event: webhookEvent, targetUrl: sub.targetUrl },
  };
}
