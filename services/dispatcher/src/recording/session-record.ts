// The record of one session as the webhooks service stores it (docs/events.md#session-records):
// how it was routed, every attempt with an excerpt of the application's answer, the instructions
// it ended with or why it failed.
import { excerptOf, type SessionRecord } from '@switchboard/contracts';
import type { Ending, RecordedStep } from '../delivery/session-steps.ts';
import type { SessionPlan } from '../delivery/plan.ts';
import type { SessionJob } from '../jobs.ts';

/**
 * The session's record; null when it belongs to no account (no application and no account in the
 * event, or an application that does not exist: nobody could read it).
 */
export function sessionRecord(
  job: SessionJob,
  plan: SessionPlan,
  steps: readonly RecordedStep[],
  ending: Ending,
): SessionRecord | null {
  const e = job.event;
  const applicationId = e.applicationId ?? null;
  if (!plan.accountId) return null;
  const last = steps[steps.length - 1];
  const outcome =
    ending.kind === 'failed' ? 'failed' : last?.role === 'fallback' ? ('fallback' as const) : ('answered' as const);
  return {
    id: e.session.id ?? job.webhookId,
    applicationId,
    accountId: plan.accountId,
    channel: plan.channel,
    from: e.session.from?.id ?? null,
    to: e.session.to?.id ?? null,
    startedAt: job.receivedAt,
    routedBy: job.routedBy ?? { type: applicationId ? 'application' : 'address', value: applicationId },
    outcome,
    attempts: steps.map((s) => {
      const excerpt = s.answer ? excerptOf(s.answer.body) : null;
      return {
        at: s.at.toISOString(),
        url: s.url,
        role: s.role,
        status: s.status,
        durationMs: Math.round(s.durationMs),
        error: s.error,
        responseContentType: s.answer?.contentType ?? null,
        responseExcerpt: excerpt?.text ?? null,
        responseTruncated: excerpt?.truncated ?? false,
      };
    }),
    instructions:
      ending.kind === 'instructed'
        ? (() => {
            const x = excerptOf(ending.raw);
            return {
              at: ending.receivedAt.toISOString(),
              bytes: ending.raw.length,
              excerpt: x.text,
              truncated: x.truncated,
            };
          })()
        : null,
    failure: ending.kind === 'failed' ? { reason: ending.reason } : null,
    statusCallbackUrl: e.launch?.statusCallbackUrl ?? null,
  };
}
