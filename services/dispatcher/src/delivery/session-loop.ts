// The session loop (docs/events.md#session-loop): one sessions.new -> signed POSTs to the
// application's URL, then its fallback, all within the session's budget -> the answer published on
// sessions.instructions, or sessions.failed with a reason. A caller is waiting, so nothing here
// waits for a host or schedules a retry for later: the rules are in policies/session.ts.
//
// The inbound message is kept alive while the session runs and acknowledged once its outcome is
// published and its attempts recorded. A crash before that re-delivers the event and the session
// runs again; its outcome is published under a message id derived from the session, so JetStream
// keeps one outcome per session (within the stream's duplicate window).
import { SUBJECTS } from '@switchboard/events';
import { publishJsonUntilStored, type JetStreamClient, type JsMsg } from '@switchboard/messaging';
import type { Logger } from '@switchboard/observability';
import type { SessionRegistry } from '@switchboard/contracts';
import type { SessionJob } from '../jobs.ts';
import { isLookupUnavailable, type Lookups } from '../lookup/lookups.ts';
import type { DispatcherMetrics, Outcome } from '../metrics.ts';
import { attemptRecord, type RecordBase } from '../recording/attempt-record.ts';
import type { AttemptRecorder } from '../recording/attempt-recorder.ts';
import { sessionRecord } from '../recording/session-record.ts';
import type { SessionRecorder } from '../recording/session-recorder.ts';
import type { Channel } from './bodies.ts';
import type { InFlight } from './in-flight.ts';
import { planSession, sessionEnd, type SessionPlan } from './plan.ts';
import {
  ATTEMPTS_PER_URL,
  attemptTimeoutMs,
  fallbackReserveMs,
  judgeSessionAttempt,
  MAX_ANSWER_BYTES,
  MIN_ATTEMPT_MS,
  sessionRetryDelayMs,
  type RealTimeSettings,
  type SessionReason,
} from './policies/session.ts';
import { jitter } from './retry.ts';
import type { Attempted, SignedPost, SignedSender } from './signed-sender.ts';
import type { AttemptDone } from './worker.ts';
import type { Ending, RecordedStep, SessionStep } from './session-steps.ts';

export interface SessionLoopDeps {
  js: JetStreamClient;
  /** Sessions routed in the last 24 h, which the Session API may signal. */
  registry: Pick<SessionRegistry, 'remember'>;
  lookups: Lookups;
  sender: SignedSender;
  settings: RealTimeSettings;
  recorder: AttemptRecorder;
  /** Publishes each session's record (recording/session-recorder.ts). */
  sessionRecorder: Pick<SessionRecorder, 'record'>;
  inFlight: InFlight;
  metrics: DispatcherMetrics;
  logger: Logger;
}

/** Body of sessions.instructions. */
export interface SessionInstructions {
  sessionId: string | null;
  applicationId: string;
  accountId: string | null;
  channel: Channel;
  status: number;
  contentType: string | null;
  body: unknown;
  receivedAt: string;
}

/** Body of sessions.failed; without applicationId when no application owns the dialled address. */
export interface SessionFailed {
  sessionId: string | null;
  applicationId?: string;
  accountId?: string;
  channel: Channel;
  reason: SessionReason;
  attempts: SessionStep[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Wait before asking a busy host for a slot again (the limiter itself waits up to 1 s for one). */
const HOST_BUSY_WAIT_MS = 100;

export class SessionLoop {
  constructor(private readonly d: SessionLoopDeps) {}

  /**
   * Starts a session: like an admitted notification, it runs on its own while the consumer goes on
   * pulling; `recording` settles once its outcome is published and its attempts recorded.
   */
  async run(job: SessionJob, msg: JsMsg): Promise<AttemptDone> {
    return { recording: this.d.inFlight.keepAlive(msg, () => this.session(job)) };
  }

  /** The session's attempts, then its outcome and records. */
  private async session(job: SessionJob): Promise<'ack'> {
    const started = performance.now();
    const left = () => this.d.settings.deadlineMs - (performance.now() - started);
    this.register(job);
    const plan = await this.plan(job, left);
    const steps: RecordedStep[] = [];
    const ending: Ending =
      plan.kind === 'end' ? { kind: 'failed', reason: plan.reason } : await this.attempts(job, plan, steps, left);
    if (plan.kind === 'end')
      steps.push({
        url: null,
        status: 0,
        error: `${plan.reason}: ${plan.error}`,
        durationMs: 0,
        at: new Date(),
        role: 'primary',
      });
    const result = ending.kind === 'instructed' ? 'instructed' : 'failed';
    this.d.metrics.sessions.inc({ result, reason: ending.kind === 'failed' ? ending.reason : 'none' });
    this.d.metrics.sessionDuration.observe({ result }, (performance.now() - started) / 1000);
    if (ending.kind === 'failed')
      this.d.logger.info(
        {
          webhookId: job.webhookId,
          applicationId: job.event.applicationId,
          reason: ending.reason,
          attempts: steps.length,
        },
        'session failed',
      );
    return this.finish(job, plan, steps, ending);
  }

  /**
   * Registers the session for signals (the Session API), without holding it up: a registry that is
   * away costs the session its signals, not its delivery.
   */
  private register(job: SessionJob): void {
    const e = job.event;
    // Routed sessions have their owner filled in before they get here.
    if (!e.session.id || !e.applicationId) return;
    this.d.registry
      .remember(e.session.id, {
        applicationId: e.applicationId,
        accountId: e.session.accountId ?? null,
        source: 'routed',
      })
      .catch((err: unknown) => {
        this.d.logger.warn(
          { err: (err as Error).message, applicationId: e.applicationId },
          'session not registered for signals',
        );
      });
  }

  /** The plan; while the applications service is away, asked again until the budget is spent. */
  private async plan(job: SessionJob, left: () => number): Promise<SessionPlan> {
    for (;;) {
      try {
        return await planSession(job, this.d);
      } catch (err) {
        if (!isLookupUnavailable(err)) throw err;
        const wait = jitter(300);
        if (left() - wait < MIN_ATTEMPT_MS)
          return sessionEnd(
            job,
            null,
            'lookup_unavailable',
            `application lookup failed: ${(err as Error).message}`.slice(0, 500),
          );
        await sleep(wait);
      }
    }
  }

  /** Attempts to the primary URL, then to the fallback, within the budget; `steps` receives each. */
  private async attempts(
    job: SessionJob,
    plan: Extract<SessionPlan, { kind: 'send' }>,
    steps: RecordedStep[],
    left: () => number,
  ): Promise<Ending> {
    const s = this.d.settings;
    const urls = [plan.primary, plan.fallback].filter((u): u is string => !!u);
    let reason: SessionReason = 'deadline_exceeded';
    for (const [i, url] of urls.entries()) {
      const role = url === plan.primary && i === 0 ? 'primary' : 'fallback';
      const isLast = i === urls.length - 1;
      // The primary leaves the fallback one attempt's worth of the budget; the fallback always gets an attempt.
      const kept = isLast ? 0 : fallbackReserveMs(s, true);
      const mustTry = isLast && i > 0;
      // Set after a failure that is tried again: the next attempt waits its delay first.
      let retrying = false;
      for (let n = 1; n <= ATTEMPTS_PER_URL; n++) {
        if (retrying) {
          retrying = false;
          const delay = sessionRetryDelayMs(n);
          if (left() - kept - delay < MIN_ATTEMPT_MS) {
            reason = 'deadline_exceeded';
            break;
          }
          await sleep(delay);
        }
        const timeoutMs = attemptTimeoutMs(s, left(), kept, mustTry && n === 1);
        if (timeoutMs === 0) {
          reason = 'deadline_exceeded';
          break;
        }
        const at = new Date();
        const a = await this.attempt(
          {
            accountId: plan.accountId,
            url,
            body: plan.body,
            keys: plan.keys,
            webhookId: job.webhookId,
            options: { timeoutMs, readBodyUpTo: MAX_ANSWER_BYTES },
          },
          timeoutMs,
        );
        const busy = a.kind === 'wait' && a.reason !== 'breaker_open';
        if (busy && left() - kept - HOST_BUSY_WAIT_MS >= MIN_ATTEMPT_MS) {
          // A busy host frees up within moments: wait for a slot within the budget, no attempt spent.
          await sleep(jitter(HOST_BUSY_WAIT_MS));
          n--;
          continue;
        }
        if (a.kind !== 'attempted') {
          // A host known to be bad is not waited for: on to the next URL at once.
          reason = a.kind === 'refused' ? 'ssrf_refused' : a.reason === 'breaker_open' ? 'breaker_open' : 'host_busy';
          const why =
            a.kind === 'refused'
              ? a.reason
              : a.reason === 'breaker_open'
                ? 'the host is unavailable (circuit breaker open)'
                : 'the host stayed busy';
          steps.push({ url, status: 0, error: `${reason}: ${why}`, durationMs: 0, at, role });
          break;
        }
        const r = a.result;
        this.d.metrics.attemptDuration.observe({ kind: 'session' }, r.durationMs / 1000);
        const v = judgeSessionAttempt(r);
        steps.push({
          url,
          status: r.kind === 'response' ? r.status : 0,
          error: v.ok ? null : `${v.reason}: ${v.error}`,
          durationMs: r.durationMs,
          at,
          role,
          answer: r.kind === 'response' ? r.answer : undefined,
        });
        if (v.ok)
          return {
            kind: 'instructed',
            applicationId: plan.applicationId,
            status: v.status,
            contentType: v.contentType,
            body: v.body,
            receivedAt: new Date(),
            raw: r.kind === 'response' && r.answer ? r.answer.body : Buffer.alloc(0),
          };
        reason = v.reason;
        if (!v.retryable) break;
        retrying = true;
      }
    }
    return { kind: 'failed', reason };
  }

  /**
   * One signed attempt that is over within `timeoutMs`, the wait for the host's slot included: past
   * that the session moves on (host_busy), and a slot given later is handed back unused.
   */
  private async attempt(p: SignedPost, timeoutMs: number): Promise<Attempted> {
    const sending = this.d.sender.start({ ...p, notAfter: Date.now() + timeoutMs });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Attempted>(
      (r) => (timer = setTimeout(() => r({ kind: 'wait', reason: 'host_busy', delayMs: 0 }), timeoutMs + 100)),
    );
    try {
      return await Promise.race([sending.attempted, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Publishes the outcome (first: the core is waiting) and records every step, and the session. */
  private async finish(job: SessionJob, plan: SessionPlan, steps: RecordedStep[], ending: Ending): Promise<'ack'> {
    const e = job.event;
    const sessionId = e.session.id ?? null;
    // One outcome per session: instructions and failure share the id, so a re-run publishes neither again.
    const msgID = `session:${sessionId ?? job.webhookId}`;
    // The outcome is the result of the session's attempts: a refused or failed publish is tried again
    // (the event is kept alive meanwhile), never answered by running the session, and POSTing the
    // application, again.
    const outcome =
      ending.kind === 'instructed'
        ? {
            subject: SUBJECTS.sessionInstructions,
            body: {
              sessionId,
              applicationId: ending.applicationId,
              accountId: plan.accountId,
              channel: plan.channel,
              status: ending.status,
              contentType: ending.contentType,
              body: ending.body,
              receivedAt: ending.receivedAt.toISOString(),
            } satisfies SessionInstructions,
          }
        : {
            subject: SUBJECTS.sessionFailed,
            body: {
              sessionId,
              ...(plan.record.applicationId ? { applicationId: plan.record.applicationId } : {}),
              ...(plan.accountId ? { accountId: plan.accountId } : {}),
              channel: plan.channel,
              reason: ending.reason,
              attempts: steps.map(({ url, status, error, durationMs }) => ({ url, status, error, durationMs })),
            } satisfies SessionFailed,
          };
    const published = publishJsonUntilStored(this.d.js, outcome.subject, outcome.body, msgID, {
      onRetry: (err, attempt) => {
        this.d.metrics.outcomePublishRetries.inc();
        if (attempt === 1)
          this.d.logger.warn({ err: (err as Error)?.message, sessionId }, 'session outcome not published; retrying');
      },
    });
    // A session without an application (unknown_address) has no delivery log to be recorded in.
    const recorded = plan.record.applicationId ? steps : [];
    const records = recorded.map((step, i) => {
      const last = i === recorded.length - 1;
      const outcome: Outcome = !last ? 'retrying' : ending.kind === 'instructed' ? 'succeeded' : 'failed';
      this.d.metrics.deliveries.inc({ kind: 'session', outcome });
      // The body is kept with the session's first record, for resends.
      const base: RecordBase = {
        ...plan.record,
        targetUrl: step.url ?? '',
        ...(i === 0 && plan.kind === 'send' ? { body: plan.body } : {}),
      };
      return this.d.recorder.record(
        attemptRecord({ ...job, attempt: i + 1 }, base, {
          outcome,
          statusCode: step.status,
          durationMs: step.durationMs,
          error: step.error ?? undefined,
          // What the application answered (its first EXCERPT_BYTES), as the session record shows it.
          response: step.answer,
        }),
      );
    });
    const session = sessionRecord(job, plan, steps, ending);
    // Kept until JetStream has it, like the attempt records: the event is acknowledged only then.
    // Should the rest fail, the session runs again with a record of its own: stop retrying this one.
    const stop = new AbortController();
    const stored = session ? this.d.sessionRecorder.record(session, stop.signal) : undefined;
    try {
      await Promise.all([published, ...records, stored]);
    } catch (err) {
      stop.abort();
      throw err;
    }
    return 'ack';
  }
}
