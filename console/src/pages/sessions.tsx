// Sessions of an application: its charts (sessions by outcome, session deliveries), the sessions
// newest first with filters (outcome, channel, since, until, caller id), one page at a time, and
// the session deliveries. The application and the filters live in the address, so a filtered list
// can be bookmarked and Back returns to it.
import { type FormEvent, useEffect } from 'react';
import { Link, navigate, useQueryParams } from '../router.ts';
import { ApplicationPicker, useApplication } from '../ui/application-picker.tsx';
import { ChoiceFilter, FilterForm, TimeRangeFilter } from '../ui/filters.tsx';
import { Field } from '../ui/form.tsx';
import { Failed, Loading, Page } from '../ui/page.tsx';
import { Table } from '../ui/table.tsx';
import { PagedRows, usePaged } from '../ui/paged.tsx';
import { StatsChart } from '../ui/stats-chart.tsx';
import { isoFromLocal, when } from '../ui/time.ts';
import { useApplications } from './applications.tsx';
import { Deliveries } from './deliveries.tsx';
import { OUTCOME_TEXT } from './session-model.ts';
import { client, given, page, type SessionSummary } from '../api.ts';
import type { Owner } from '../api/owner.ts';
import { queryKeys } from '../api/query-keys.ts';

const FILTERS = ['outcome', 'channel', 'since', 'until', 'from'] as const;
const PAGE = 25;

/** The filters in the address; empty: any. */
interface Filters {
  outcome: SessionSummary['outcome'] | '';
  channel: SessionSummary['channel'] | '';
  since: string;
  until: string;
  from: string;
}

export function SessionsPage() {
  const params = useQueryParams();
  const apps = useApplications(false);
  // Without one in the address, the first application by name, put in the address (so the page
  // stays on it when more pages of applications arrive).
  const first = params.get('application') ? undefined : apps.all?.[0]?.id;
  const appId = params.get('application') || first;
  useEffect(() => {
    if (!first) return;
    const next = new URLSearchParams(location.search);
    next.set('application', first);
    navigate(`/sessions?${next}`, true);
  }, [first]);
  const { app } = useApplication(appId);
  const inAddress = (f: (typeof FILTERS)[number]) => params.get(f) ?? '';
  const filters: Filters = {
    outcome: inAddress('outcome') as Filters['outcome'],
    channel: inAddress('channel') as Filters['channel'],
    since: inAddress('since'),
    until: inAddress('until'),
    from: inAddress('from'),
  };
  const owner: Owner | undefined = appId ? { kind: 'applications', id: appId } : undefined;
  const list = usePaged(
    [...queryKeys.sessions(appId), filters],
    appId
      ? (cursor) =>
          page<SessionSummary>(
            client.GET('/v1/applications/{id}/sessions', {
              params: { path: { id: appId }, query: given({ ...filters, limit: PAGE, cursor }) },
            }),
          )
      : undefined,
    5000,
  );
  const filtered = FILTERS.some((f) => params.get(f));

  const go = (values: Record<string, string>) => {
    const next = new URLSearchParams();
    if (appId) next.set('application', appId);
    for (const [k, v] of Object.entries(values)) if (v) next.set(k, v);
    navigate(`/sessions?${next}`);
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = new FormData(e.currentTarget);
    const s = (k: string) => String(v.get(k) ?? '').trim();
    go({
      outcome: s('outcome'),
      channel: s('channel'),
      since: isoFromLocal(s('since')),
      until: isoFromLocal(s('until')),
      from: s('from'),
    });
  };

  return (
    <Page title="Sessions">
      <p className="muted small">
        Every call and message Switchboard handed to an application: what it sent, what the application answered, and
        what happened next.
      </p>
      {!appId && apps.pending ? (
        <Loading what="applications" />
      ) : !appId && apps.error ? (
        <Failed error={apps.error} retry={apps.retry} />
      ) : !appId ? (
        <p>
          No applications yet. <Link to="/applications">Create one</Link> first: its sessions show here.
        </p>
      ) : (
        <>
          <ApplicationPicker
            label="Application"
            value={appId}
            onChange={(id) => navigate(id ? `/sessions?application=${id}` : '/sessions')}
          />
          <div className="charts">
            <StatsChart owner={owner!} subject={app?.name ?? appId} kind="sessions" />
            <StatsChart owner={owner!} subject={app?.name ?? appId} kind="deliveries" />
          </div>
          <section aria-labelledby="sessions-h">
            <h2 id="sessions-h">Sessions of {app?.name ?? appId}</h2>
            <FilterForm
              key={params.toString()}
              label="Filter the sessions"
              onSubmit={submit}
              onClear={filtered ? () => go({}) : undefined}
            >
              <ChoiceFilter
                label="Outcome"
                name="outcome"
                any="Any outcome"
                choices={Object.entries(OUTCOME_TEXT)}
                value={filters.outcome}
              />
              <ChoiceFilter
                label="Channel"
                name="channel"
                any="Any channel"
                choices={[
                  ['VOICE', 'Voice'],
                  ['TEXT', 'Text'],
                ]}
                value={filters.channel}
              />
              <TimeRangeFilter since={filters.since} until={filters.until} />
              <Field label="From (caller id)" name="from" defaultValue={filters.from} />
            </FilterForm>
            <PagedRows
              list={list}
              what="sessions"
              empty={
                filtered
                  ? 'No sessions match these filters.'
                  : 'No sessions yet: they show here once a call or message reaches this application.'
              }
              pager="Pages of sessions"
            >
              {(rows) => (
                <Table
                  caption="Sessions, newest first"
                  heads={['Started', 'Outcome', 'Channel', 'From', 'To', 'Attempts']}
                >
                  {rows.map((s) => (
                    <tr key={s.id}>
                      <td data-label="Started">
                        <Link
                          to={`/sessions/${s.id}`}
                          aria-label={`Session of ${when(s.startedAt)}, ${OUTCOME_TEXT[s.outcome]}`}
                        >
                          {when(s.startedAt)}
                        </Link>
                      </td>
                      <td data-label="Outcome" className={`session-${s.outcome}`}>
                        {OUTCOME_TEXT[s.outcome]}
                        {s.failure ? <div className="small">{s.failure.reason}</div> : null}
                      </td>
                      <td data-label="Channel">{s.channel}</td>
                      <td data-label="From" className="url">
                        {s.from ?? '—'}
                      </td>
                      <td data-label="To" className="url">
                        {s.to ?? '—'}
                      </td>
                      <td data-label="Attempts">{s.attemptCount}</td>
                    </tr>
                  ))}
                </Table>
              )}
            </PagedRows>
          </section>
          <Deliveries
            key={appId}
            owner={owner!}
            linkBase={`/applications/${appId}/deliveries`}
            events={[]}
            title="Session deliveries"
          />
        </>
      )}
    </Page>
  );
}
