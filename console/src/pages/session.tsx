// The inspector of one session: a timeline of what Switchboard received, each POST to the
// application (URL, primary or fallback, status, time, error, what it answered), the instructions
// it took, the signals sent to it and why it failed.
import { useQuery } from '@tanstack/react-query';
import { body, client, type SessionRecord } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { Link } from '../router.ts';
import { Excerpt } from '../ui/excerpt.tsx';
import { NotLoaded, Page } from '../ui/page.tsx';
import { when } from '../ui/time.ts';
import { OUTCOME_TEXT } from './session-model.ts';
import type { RouteParams } from '../paths.ts';
import { Prop } from '../ui/prop.tsx';

function AttemptItem({ a, n }: { a: SessionRecord['attempts'][number]; n: number }) {
  const ok = a.status !== null && a.status >= 200 && a.status < 300 && !a.error;
  return (
    <li id={`attempt-${n}`} className={`event ${ok ? 'ok' : 'bad'}`}>
      <h3>
        <span className="when">{when(a.at)}</span> POST to the {a.role === 'fallback' ? 'fallback' : 'primary'} URL
      </h3>
      <dl className="props">
        <Prop name="URL" className="url">
          {a.url ?? '(none chosen)'}
        </Prop>
        <Prop name="Role">{a.role}</Prop>
        <Prop name="Status" className={ok ? undefined : 'problem'}>
          {a.status ?? 'no answer'}
        </Prop>
        <Prop name="Duration">{a.durationMs} ms</Prop>
        {a.error ? (
          <Prop name="Error" className="problem">
            {a.error}
          </Prop>
        ) : null}
        {a.responseContentType ? <Prop name="Content-Type">{a.responseContentType}</Prop> : null}
      </dl>
      {a.responseExcerpt ? (
        <Excerpt
          label={`What the application answered to attempt ${n}`}
          text={a.responseExcerpt.text}
          truncated={a.responseExcerpt.truncated}
        />
      ) : (
        <p className="muted small">No answer was received.</p>
      )}
    </li>
  );
}

export function SessionPage({ params }: { params: RouteParams }) {
  const id = params.id!;
  const s = useQuery({
    queryKey: queryKeys.sessionRecord(id),
    queryFn: () => body(client.GET('/v1/sessions/{sessionId}', { params: { path: { sessionId: id } } })),
  });
  if (s.isPending || s.isError)
    return <NotLoaded query={s} kind="Session" back="/sessions" backText="Back to the sessions" />;
  const d = s.data;
  const back = d.applicationId ? `/sessions?application=${d.applicationId}` : '/sessions';
  return (
    <Page title={`Session ${d.id}`}>
      <p className="muted small">
        <Link to={back}>Back to the sessions</Link>
        {d.applicationId ? (
          <>
            {' '}
            · <Link to={`/applications/${d.applicationId}`}>The application</Link>
          </>
        ) : null}
      </p>
      <dl className="props">
        <Prop name="Outcome" className={d.outcome === 'failed' ? 'problem' : undefined}>
          {OUTCOME_TEXT[d.outcome]}
        </Prop>
        <Prop name="Channel">{d.channel}</Prop>
        <Prop name="From" className="url">
          {d.from ?? '—'}
        </Prop>
        <Prop name="To" className="url">
          {d.to ?? '—'}
        </Prop>
        <Prop name="Routed by">
          {d.routedBy.type}
          {d.routedBy.value ? (
            <>
              {' '}
              <code>{d.routedBy.value}</code>
            </>
          ) : null}
        </Prop>
      </dl>
      <h2 id="timeline">Timeline</h2>
      <ol className="timeline" aria-labelledby="timeline">
        <li className="event">
          <h3>
            <span className="when">{when(d.startedAt)}</span> Session received
          </h3>
          <p className="small">
            {d.channel === 'VOICE' ? 'A call' : 'A message'} from {d.from ?? 'an unknown caller'} to{' '}
            {d.to ?? 'an unknown address'}, routed by {d.routedBy.type}.
          </p>
        </li>
        {d.attempts.map((a, i) => (
          <AttemptItem key={`${a.at}-${a.role}`} a={a} n={i + 1} />
        ))}
        {d.instructions ? (
          <li className="event ok">
            <h3>
              <span className="when">{when(d.instructions.at)}</span> Instructions taken ({d.instructions.bytes} bytes)
            </h3>
            <Excerpt
              label="The instructions"
              text={d.instructions.excerpt.text}
              truncated={d.instructions.excerpt.truncated}
            />
          </li>
        ) : null}
        {d.signals.map((g) => (
          <li key={`${g.at}-${g.value}`} className="event">
            <h3>
              <span className="when">{when(g.at)}</span> Signal <code>{g.value}</code>
            </h3>
            <p className="small">Status: {g.status}</p>
          </li>
        ))}
        {d.failure ? (
          <li className="event bad">
            <h3>Failed</h3>
            <p className="problem">{d.failure.reason}</p>
          </li>
        ) : null}
      </ol>
    </Page>
  );
}
