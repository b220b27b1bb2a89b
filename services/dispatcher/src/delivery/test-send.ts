// Test sends (POST /v1/webhooks/:id/test): the webhooks service asks on a core NATS subject, one
// dispatcher of the queue group answers. The test notification goes out now through the signed
// sender (SSRF guard, host limiter, circuit breaker) with the subscription's custom headers, within
// DELIVERY_TIMEOUT_MS including any wait for the host; the attempt is recorded (trigger "test", with
// the receiver's answer) and the reply says how it ended. A test is never retried.
import { randomUUID } from 'node:crypto';
import { startAuthenticated, type TokenCache } from './endpoint-auth.ts';
import { attemptOptions } from './subscription-settings.ts';
import type { Logger } from '@switchboard/observability';
import type { NatsConnection } from '@switchboard/messaging';
import {
  DISPATCHER_QUEUE,
  TEST_SUBJECT,
  testRequestSchema,
  type TestReply,
  type TestRequest,
} from '@switchboard/contracts';
import type { Lookups } from '../lookup/lookups.ts';
import type { DispatcherMetrics } from '../metrics.ts';
import { attemptRecord, EXCERPT_BYTES, type AttemptFields, type RecordBase } from '../recording/attempt-record.ts';
import type { AttemptRecorder } from '../recording/attempt-recorder.ts';
import { buildTestBody } from './bodies.ts';
import type { SignedSender } from './signed-sender.ts';
import { classifyAttempt } from './outcome.ts';
import { notSentReason } from './single-attempt.ts';

export interface TestSendDeps {
  lookups: Lookups;
  sender: SignedSender;
  /** OAuth2 tokens of subscriptions with `auth` (endpoint-auth.ts). */
  tokens?: TokenCache;
  recorder: AttemptRecorder;
  metrics: DispatcherMetrics;
  logger: Logger;
  timeoutMs: number;
}

/** Makes one test send and records it; answers the reply. */
export async function testSend(d: TestSendDeps, req: TestRequest): Promise<TestReply> {
  const sub = await d.lookups.subscriptionTarget(req.accountId, req.subscriptionId);
  if (!sub) return { status: 0, durationMs: 0, error: 'not sent: the subscription no longer exists' };
  const body = JSON.stringify(buildTestBody(`test_${randomUUID()}`, sub, req.message, new Date()));
  const base: RecordBase = {
    id: req.deliveryId,
    trigger: 'test',
    subscriptionId: sub.id,
    applicationId: sub.applicationId ?? '',
    accountId: sub.accountId,
    event: 'test',
    targetUrl: sub.targetUrl,
    body,
  };
  const sending = startAuthenticated(
    d.sender,
    {
      accountId: sub.accountId,
      url: sub.targetUrl,
      body,
      keys: sub.keys,
      webhookId: req.webhookId,
      headers: sub.headers,
      notAfter: Date.now() + d.timeoutMs,
      // The receiver's answer goes into the record (its first EXCERPT_BYTES), as for every notification attempt.
      options: attemptOptions({ readBodyUpTo: EXCERPT_BYTES }, sub.settings),
    },
    sub.settings,
    d.tokens,
  );
  const a = await sending.attempted;
  let fields: AttemptFields;
  if (a.kind === 'attempted') {
    d.metrics.attemptDuration.observe({ kind: 'notification' }, a.result.durationMs / 1000);
    // A test that gets 410 does not disable the subscription: the customer is trying it out.
    fields = classifyAttempt(a.result, { attempt: 1, subscriptionId: null, retry: null });
    if (a.result.kind === 'response' && a.result.answer) fields.response = a.result.answer;
  } else
    fields = {
      outcome: 'failed',
      statusCode: 0,
      durationMs: 0,
      error: a.kind === 'refused' ? a.reason : notSentReason(a.reason),
    };
  await d.recorder.record(attemptRecord({ kind: 'notification', webhookId: req.webhookId, attempt: 1 }, base, fields));
  return {
    status: fields.statusCode,
    durationMs: Math.round(fields.durationMs),
    ...(fields.error ? { error: fields.error } : {}),
  };
}

/** Answers test requests in the dispatchers' queue group until the returned function is called. */
export function listenForTests(nc: NatsConnection, d: TestSendDeps): () => Promise<void> {
  const pending = new Set<Promise<void>>();
  const sub = nc.subscribe(TEST_SUBJECT, {
    queue: DISPATCHER_QUEUE,
    callback: (err, msg) => {
      if (err) return;
      const p = (async () => {
        let reply: TestReply;
        try {
          reply = await testSend(d, testRequestSchema.parse(msg.json()));
        } catch (e) {
          d.logger.warn({ err: (e as Error).message }, 'test send failed');
          reply = {
            status: 0,
            durationMs: 0,
            error: 'not sent: the dispatcher could not look up the subscription; try again',
          };
        }
        msg.respond(JSON.stringify(reply));
      })().finally(() => pending.delete(p));
      pending.add(p);
    },
  });
  return async () => {
    sub.unsubscribe();
    await Promise.allSettled([...pending]);
  };
}
