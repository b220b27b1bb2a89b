import { attemptRecord } from './src/recording/attempt-record';
import { parseEvent } from './src/events/schemas';
function time(name: string, n: number, f: () => unknown) {
  let best = Infinity;
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    best = Math.min(best, ((performance.now() - t) * 1000) / n);
  }
  console.log(name.padEnd(30), best.toFixed(2), 'us');
}
const raw = Buffer.from(JSON.stringify({ id: 'tp-1', accountId: '12', resource: 'call', timestamp: new Date().toISOString(), data: { sentAt: Date.now(), callId: 'c1', from: '+14155550100', to: '+14155550199', durationSeconds: 42 } }));
const job: any = { v: 1, kind: 'notification', webhookId: 'msg_abc', attempt: 1 };
const base = { subscriptionId: 'wh_1', applicationId: '', accountId: '12', event: 'cdrCreated', targetUrl: 'http://127.0.0.1:1234/hook' };
const d = new Date();
time('attemptRecord', 20000, () => attemptRecord(job, base, { outcome: 'succeeded', statusCode: 204, durationMs: 2, error: undefined }));
time('attemptRecord fixed date', 20000, () => attemptRecord(job, base, { outcome: 'succeeded', statusCode: 204, durationMs: 2, error: undefined }, d));
time('new Date()', 20000, () => new Date());
time('toISOString', 20000, () => d.toISOString());
time('Date.now', 20000, () => Date.now());
time('performance.now', 20000, () => performance.now());
time('parseEvent', 20000, () => parseEvent('cdr.created', raw));
time('Date.parse', 20000, () => Date.parse('2026-11-23T13:51:44.123Z'));
const KIND: any = { notification: 'DELIVERY_KIND_NOTIFICATION' };
const OUT: any = { succeeded: 'DELIVERY_OUTCOME_SUCCEEDED' };
function explicit(job: any, base: any, a: any, now = new Date()) {
  const r: any = { subscriptionId: base.subscriptionId, applicationId: base.applicationId, accountId: base.accountId, event: base.event, targetUrl: base.targetUrl, kind: job.kind, deliveryKind: KIND[job.kind], messageId: job.webhookId, attempt: job.attempt, statusCode: a.statusCode, durationMs: Math.round(a.durationMs), outcome: a.outcome, deliveryOutcome: OUT[a.outcome], createdAt: now.toISOString() };
  if (a.error) r.error = a.error.slice(0, 1000);
  return r;
}
time('explicit', 20000, () => explicit(job, base, { outcome: 'succeeded', statusCode: 204, durationMs: 2, error: undefined }, d));
time('spread only', 20000, () => ({ ...base, kind: 'x' }));
