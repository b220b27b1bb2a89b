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

function AttemptItem({ a, n }: { a: SessionRecord['attempts'][number]; n: number }) {
  const ok = a.status !== null && a.status >= 200 && a.status < 300 && !a.error;
  return (
    <li id={`attempt-${n}`} className={`event ${ok ? 'ok' : 'bad'}`}>
      <h3>
        <span className="when">{when(a.at)}</span> POST to the {a.role === 'fallback' ? 'fallback' : 'primary'} URL
      </h3>
      <dl className="props">
        <div className="prop">
          <dt>URL</dt>
          <dd className="url">{a.url ?? '(none chosen)'}</dd>
        </div>
        <div className="prop">
          <dt>Role</dt>
          <dd>{a.role}</dd>
        </div>
        <div className="prop">
          <dt>Status</dt>
          <dd className={ok ? undefined : 'problem'}>{a.status ?? 'no answer'}</dd>
        </div>
        <div className="prop">
          <dt>Duration</dt>
          <dd>{a.durationMs} ms</dd>
        </div>
        {a.error ? (
          <div className="prop">
            <dt>Error</dt>
            <dd className="problem">{a.error}</dd>
          </div>
        ) : null}
        {a.responseContentType ? (
          <div className="prop">
            <dt>Content-Type</dt>
            <dd>{a.responseContentType}</dd>
          </div>
        ) : null}
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
        <div className="prop">
          <dt>Outcome</dt>
          <dd className={d.outcome === 'failed' ? 'problem' : undefined}>{OUTCOME_TEXT[d.outcome]}</dd>
        </div>
        <div className="prop">
          <dt>Channel</dt>
          <dd>{d.channel}</dd>
        </div>
        <div className="prop">
          <dt>From</dt>
          <dd className="url">{d.from ?? '—'}</dd>
        </div>
        <div className="prop">
          <dt>To</dt>
          <dd className="url">{d.to ?? '—'}</dd>
        </div>
        <div className="prop">
          <dt>Routed by</dt>
          <dd>
            {d.routedBy.type}
            {d.routedBy.value ? (
              <>
                {' '}
                <code>{d.routedBy.value}</code>
              </>
            ) : null}
          </dd>
        </div>
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
