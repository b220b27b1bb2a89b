// One delivery (one message, by its webhook-id): every attempt, each with the request Switchboard
// sent (target, webhook-id, the JSON body, formatted) and the receiver's response (status, time, its
// first 4 KiB), and "Resend".
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { body, type Delivery, listAll } from '../api.ts';
import { getDelivery, listDeliveries, type Owner, resendDelivery } from '../api/owner.ts';
import { queryKeys } from '../api/query-keys.ts';
import { Link } from '../router.ts';
import { Excerpt, formatJson } from '../ui/excerpt.tsx';
import { Alert, generalProblem } from '../ui/form.tsx';
import { Failed, NotLoaded, Page } from '../ui/page.tsx';
import { when } from '../ui/time.ts';
import { statusText } from './deliveries.tsx';
import type { RouteParams } from '../paths.ts';
import { idOf } from './webhook-model.ts';
import { Prop } from '../ui/prop.tsx';

function Attempt({ owner, d, n }: { owner: Owner; d: Delivery; n: number }) {
  // The list has neither body nor response; the record's own view has them.
  const full = useQuery({
    queryKey: queryKeys.delivery(d.id),
    queryFn: () => body(getDelivery(owner, d.id)),
    refetchInterval: (q) => (q.state.data?.outcome === 'pending' ? 1000 : false),
  });
  const r = full.data ?? d;
  return (
    <li className="card attempt">
      <h3>
        Attempt {n} · <span className={`outcome-${r.outcome}`}>{r.outcome}</span>
        <span className="muted small"> · {when(r.createdAt)}</span>
      </h3>
      <div className="exchange">
        <div>
          <h4>Request</h4>
          <dl className="props">
            <Prop name="POST" className="url">
              {r.targetUrl}
            </Prop>
            <Prop name="webhook-id">
              <code>{r.messageId}</code>
            </Prop>
            <Prop name="Event">
              <code>{r.event}</code>
            </Prop>
            <Prop name="Made by">
              {{ event: 'the event', test: 'a test send', resend: 'a resend', recovery: 'a recovery' }[r.trigger]}
            </Prop>
          </dl>
          {r.request ? (
            <Excerpt
              label={`Request body of attempt ${n}`}
              text={r.request.truncated ? r.request.body : formatJson(r.request.body)}
              truncated={r.request.truncated}
              cutNote={`Cut at 16 KiB: the body sent was ${r.request.bytes.toLocaleString('en')} bytes.`}
            />
          ) : full.data ? (
            <p className="muted small">The body sent is no longer kept.</p>
          ) : null}
        </div>
        <div>
          <h4>Response</h4>
          <dl className="props">
            <Prop name="Status" className={r.statusCode !== null && r.statusCode < 300 ? undefined : 'problem'}>
              {statusText(r)}
            </Prop>
            <Prop name="Time">{r.durationMs} ms</Prop>
            {r.response ? <Prop name="Content-Type">{r.response.contentType || '(none)'}</Prop> : null}
          </dl>
          {full.isError ? <Failed error={full.error} retry={() => full.refetch()} /> : null}
          {r.response ? (
            <Excerpt
              label={`Response body of attempt ${n}`}
              text={r.response.excerpt}
              truncated={r.response.truncated}
            />
          ) : full.data ? (
            <p className="muted small">
              {r.outcome === 'pending' ? 'Not attempted yet.' : 'No response body is kept for this attempt.'}
            </p>
          ) : null}
        </div>
      </div>
    </li>
  );
}

export function DeliveryPage({ params }: { params: RouteParams }) {
  const deliveryId = params.deliveryId!;
  const sub = params.id;
  const owner: Owner = sub ? { kind: 'webhooks', id: sub } : { kind: 'applications', id: params.appId! };
  const back = sub ? `/webhooks/${sub}` : `/sessions?application=${params.appId}`;
  const queries = useQueryClient();
  const [resent, setResent] = useState<string>();
  const one = useQuery({
    queryKey: queryKeys.delivery(deliveryId),
    queryFn: () => body(getDelivery(owner, deliveryId)),
  });
  const messageId = one.data?.messageId;
  const attempts = useQuery({
    queryKey: queryKeys.deliveryAttempts(owner, messageId),
    queryFn: () => listAll((cursor) => listDeliveries(owner, { messageId: messageId!, limit: 100, cursor })),
    enabled: messageId !== undefined,
    // While a resend waits for its attempt, look again each second.
    refetchInterval: (q) =>
      resent && !(q.state.data ?? []).some((d) => d.id === resent && d.outcome !== 'pending') ? 1000 : false,
  });
  const resend = useMutation({
    mutationFn: () => body(resendDelivery(owner, deliveryId)),
    onSuccess: async (r) => {
      setResent(idOf(r.href));
      await queries.invalidateQueries({ queryKey: queryKeys.deliveriesOf(owner) });
      await queries.invalidateQueries({ queryKey: queryKeys.stats });
    },
  });
  const done = resent ? attempts.data?.find((d) => d.id === resent && d.outcome !== 'pending') : undefined;

  if (one.isPending || one.isError) return <NotLoaded query={one} kind="Delivery" back={back} backText="Back" />;
  const d = one.data;
  // Oldest first: the story of the message.
  const list = [...(attempts.data ?? [d])].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.attempt - b.attempt,
  );
  return (
    <Page
      title={`Delivery of ${d.event}`}
      actions={
        <button type="button" className="primary" onClick={() => resend.mutate()} disabled={resend.isPending}>
          Resend
        </button>
      }
    >
      <p className="muted small">
        <Link to={back}>{sub ? 'Back to the webhook' : 'Back to the sessions'}</Link> · message{' '}
        <code>{d.messageId}</code> to <span className="url">{d.targetUrl}</span>
      </p>
      <p className="muted small">
        Every attempt sends the same body. The headers sent are not stored: custom header values are secret, and the
        webhook signature headers are made for each attempt.
      </p>
      <p role="status" className="status">
        {done
          ? `Resent: ${done.outcome}, ${statusText(done)} in ${done.durationMs} ms.`
          : resent
            ? 'Resend queued…'
            : ''}
      </p>
      <Alert message={generalProblem(resend.error)} />
      <h2>Attempts ({list.length})</h2>
      {attempts.isError ? <Failed error={attempts.error} retry={() => attempts.refetch()} /> : null}
      <ol className="plain attempts">
        {list.map((a, i) => (
          <Attempt key={a.id} owner={owner} d={a} n={i + 1} />
        ))}
      </ol>
    </Page>
  );
}
