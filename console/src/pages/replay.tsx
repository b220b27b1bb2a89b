// The Replay panel of a webhook: recovery by filter (docs/api.md#delivery-tools). The filters
// (event, outcome, status range, since and until, message ids, session ids), "Count" (a dry run),
// "Replay" (a recovery task), the running task's progress and "Cancel".
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, body as answer, client, type Recovery, type RecoveryDryRun } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { paths } from '../api/schema.gen.ts';
import { Alert, Field, fieldProblems, formValues, generalProblem, Select } from '../ui/form.tsx';
import { TextArea } from '../ui/textarea.tsx';
import { isoFromLocal } from '../ui/time.ts';
import { idOf } from './webhook-model.ts';

type Filters = paths['/v1/webhooks/{id}/recover']['post']['requestBody']['content']['application/json'];

const FILTERS = ['since', 'until', 'event', 'outcome', 'statusFrom', 'statusTo', 'messageId', 'sessionId'];

/** Ids typed one per line (or separated by commas or spaces), each once. */
const ids = (text: string | undefined) => [...new Set((text ?? '').split(/[\s,]+/).filter(Boolean))];

/** The request body of the filters typed, with the problems found before asking the API. */
function filterBody(v: Record<string, string>): { body: Record<string, unknown>; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const body: Record<string, unknown> = { outcome: v.outcome || 'failed' };
  if (!v.since) problems.since = 'is required: the start of the window';
  else body.since = isoFromLocal(v.since) || v.since;
  if (v.until) body.until = isoFromLocal(v.until) || v.until;
  if (v.event) body.event = v.event;
  for (const f of ['statusFrom', 'statusTo'] as const) {
    const t = (v[f] ?? '').trim();
    if (!t) continue;
    if (/^\d+$/.test(t)) body[f] = Number(t);
    else problems[f] = 'must be an HTTP status from 100 to 599';
  }
  const messages = ids(v.messageId);
  if (messages.length) body.messageId = messages;
  const sessions = ids(v.sessionId);
  if (sessions.length) body.sessionId = sessions;
  return { body, problems };
}

/** The problems of the API by filter field (`status` is the outcome's other name). */
function replayProblems(error: unknown): Record<string, string> {
  const { status, ...rest } = fieldProblems(error);
  return status ? { ...rest, outcome: status } : rest;
}

/** The id of the task a 409 names when a recovery of the webhook is still running. */
const runningTask = (error: unknown) => {
  const m =
    error instanceof ApiError && error.status === 409 ? /recoveries\/(rcv_[0-9a-f]+)/.exec(error.message) : null;
  return m?.[1];
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function progressText(p: Recovery): string {
  const state = { running: 'running', completed: 'completed', cancelled: 'cancelled' }[p.state];
  return `Replay ${state}: ${p.sent} of ${plural(p.total, 'delivery', 'deliveries')} sent, ${p.failed} failed again, ${p.skipped} skipped (body no longer kept).`;
}

export function Replay({ id, event }: { id: string; event: string }) {
  const queries = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const [task, setTask] = useState<string>();
  const [local, setLocal] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string>();
  const count = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      answer(
        client.POST('/v1/webhooks/{id}/recover', {
          params: { path: { id } },
          body: { ...(body as Filters), dryRun: true },
        }),
      ) as Promise<RecoveryDryRun>,
  });
  const start = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      answer(client.POST('/v1/webhooks/{id}/recover', { params: { path: { id } }, body: body as Filters })),
    onSuccess: (r) => {
      setNote(undefined);
      if ('href' in r) setTask(idOf(r.href));
    },
    onError: (e) => {
      const running = runningTask(e);
      if (running) {
        setTask(running);
        setNote('A replay of this webhook is already running: its progress is below.');
      }
    },
  });
  const progress = useQuery({
    queryKey: queryKeys.recovery(task),
    queryFn: () =>
      answer(client.GET('/v1/webhooks/{id}/recoveries/{taskId}', { params: { path: { id, taskId: task! } } })),
    enabled: task !== undefined,
    refetchInterval: (q) => (q.state.data && q.state.data.state !== 'running' ? false : 1000),
  });
  const cancel = useMutation({
    mutationFn: () =>
      answer(client.DELETE('/v1/webhooks/{id}/recoveries/{taskId}', { params: { path: { id, taskId: task! } } })),
    onSuccess: (r) => queries.setQueryData(queryKeys.recovery(task), r),
  });
  const p = progress.data;
  const running = p?.state === 'running';
  // A replay that ended has added attempts: the deliveries and the chart show them.
  useEffect(() => {
    if (p && p.state !== 'running') {
      void queries.invalidateQueries({ queryKey: queryKeys.deliveries });
      void queries.invalidateQueries({ queryKey: queryKeys.stats });
    }
  }, [p?.state, p, queries]);

  const submitted = (dryRun: boolean) => {
    const { body, problems } = filterBody(formValues(form.current!));
    setLocal(problems);
    if (Object.keys(problems).length) return;
    count.reset();
    start.reset();
    if (dryRun) count.mutate(body);
    else start.mutate(body);
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    submitted(false);
  };
  const error = start.error && runningTask(start.error) ? undefined : (start.error ?? count.error);
  const problems = { ...replayProblems(error), ...local };
  const c = count.data;
  return (
    <section aria-labelledby="wh-replay" className="card">
      <h2 id="wh-replay">Replay</h2>
      <p className="muted small">
        Sends again, once each, the deliveries whose last attempt failed in a window (at most 30 days), oldest first,
        narrowed by the filters. “Count” says how many a replay would take without sending anything.
      </p>
      <form ref={form} onSubmit={submit} aria-labelledby="wh-replay" noValidate>
        <div className="replay-filters">
          <Field label="Failed since" name="since" type="datetime-local" step={1} required problem={problems.since} />
          <Field
            label="Until (optional)"
            name="until"
            type="datetime-local"
            step={1}
            problem={problems.until}
            hint="Now when empty."
          />
          <Select label="Event" name="event" defaultValue="" problem={problems.event}>
            <option value="">Any event</option>
            <option value={event}>{event}</option>
          </Select>
          <Select label="Outcome" name="outcome" defaultValue="failed" problem={problems.outcome}>
            <option value="failed">Failed</option>
          </Select>
          <Field
            label="Status from"
            name="statusFrom"
            type="number"
            inputMode="numeric"
            min={100}
            max={599}
            problem={problems.statusFrom}
            hint="The last HTTP status, 100 to 599."
          />
          <Field
            label="Status to"
            name="statusTo"
            type="number"
            inputMode="numeric"
            min={100}
            max={599}
            problem={problems.statusTo}
            hint="Inclusive, 100 to 599."
          />
          <div className="wide">
            <TextArea
              label="Message ids"
              name="messageId"
              spellCheck={false}
              problem={problems.messageId}
              hint="Optional: webhook-id values, one per line; at most 1000."
            />
          </div>
          <div className="wide">
            <TextArea
              label="Session ids"
              name="sessionId"
              spellCheck={false}
              problem={problems.sessionId}
              hint="Optional: the notifications about these sessions (their data.sessionId), one per line; at most 1000."
            />
          </div>
        </div>
        <div className="actions">
          <button type="button" onClick={() => submitted(true)} disabled={count.isPending}>
            Count
          </button>
          <button type="submit" className="primary" disabled={start.isPending || running}>
            Replay
          </button>
          <p role="status" className="status">
            {count.isPending
              ? 'Counting…'
              : c
                ? `${plural(c.matched, 'delivery matches', 'deliveries match')}${
                    c.skipped ? ` (${c.skipped} of them can no longer be sent: body no longer kept)` : ''
                  }.`
                : ''}
          </p>
        </div>
      </form>
      <Alert message={generalProblem(error ?? progress.error ?? cancel.error, FILTERS.concat('status'))} />
      {task ? (
        <div className="replay-progress">
          {note ? <p>{note}</p> : null}
          <p role="status" className="status">
            {p ? progressText(p) : 'Replay started…'}
          </p>
          <div className="actions">
            {p ? (
              <progress
                aria-label="Replay progress"
                max={Math.max(p.total, 1)}
                value={p.total ? p.sent + p.failed : p.state === 'running' ? 0 : 1}
              />
            ) : null}
            {running ? (
              <button type="button" className="danger" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
                Cancel replay
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
    </section>
  );
}
