// Alerts: the account's, newest first, filtered by code, severity and application, one page at a
// time (`?application=` starts filtered); each links to the attempt in the session inspector that
// raised it. An application's page shows its alerts of the last 24 hours (RecentAlerts).
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Alert, body, client, given, page } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { alertCodes } from '../api/schema.gen.ts';
import { Link, useQueryParams } from '../router.ts';
import { ChoiceFilter, FilterForm } from '../ui/filters.tsx';
import { Field } from '../ui/form.tsx';
import { Failed, Loading, Page } from '../ui/page.tsx';
import { Table } from '../ui/table.tsx';
import { PagedRows, usePaged } from '../ui/paged.tsx';
import { when } from '../ui/time.ts';

/** The alert codes (docs/api.md#alerts), as the API's document lists them. */
export const ALERT_CODES = alertCodes satisfies readonly Alert['code'][];
const PAGE = 50;

interface Filters {
  code: Alert['code'] | '';
  severity: Alert['severity'] | '';
  applicationId: string;
}

/** The alert's link as a console path (`/sessions/:id#attempt-N`), or undefined. */
function consolePath(link: string | null): string | undefined {
  if (!link) return undefined;
  const u = new URL(link);
  return u.pathname.replace(/^\/console/, '') + u.hash;
}

export function AlertsPage() {
  const initialApp = useQueryParams().get('application') ?? '';
  const [filters, setFilters] = useState<Filters>({ code: '', severity: '', applicationId: initialApp });
  // Looked at again every 5 s: new alerts show without a reload.
  const alerts = usePaged(
    [...queryKeys.alerts, filters],
    (cursor) => page(client.GET('/v1/alerts', { params: { query: given({ ...filters, limit: PAGE, cursor }) } })),
    5000,
  );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = new FormData(e.currentTarget);
    setFilters({
      code: String(v.get('code') ?? '') as Filters['code'],
      severity: String(v.get('severity') ?? '') as Filters['severity'],
      applicationId: String(v.get('applicationId') ?? '').trim(),
    });
  };

  return (
    <Page title="Alerts">
      <FilterForm key={JSON.stringify(filters)} label="Filter the alerts" onSubmit={submit}>
        <ChoiceFilter label="Code" name="code" any="Any code" choices={ALERT_CODES} value={filters.code} />
        <ChoiceFilter
          label="Severity"
          name="severity"
          any="Any severity"
          choices={['error', 'warning']}
          value={filters.severity}
        />
        <Field label="Application id" name="applicationId" defaultValue={filters.applicationId} />
      </FilterForm>
      <PagedRows list={alerts} what="the alerts" empty="No alerts match." pager="Pages of the alerts">
        {(rows) => (
          <Table
            caption="Alerts, newest first"
            heads={['When', 'Code', 'Severity', 'Count', 'What happened', 'Attempt']}
          >
            {rows.map((a) => {
              const to = consolePath(a.link);
              return (
                <tr key={a.id}>
                  <td data-label="When">{when(a.at)}</td>
                  <td data-label="Code">
                    <code>{a.code}</code>
                  </td>
                  <td data-label="Severity" className={a.severity === 'error' ? 'problem' : undefined}>
                    {a.severity}
                  </td>
                  <td data-label="Count">{a.count}</td>
                  <td data-label="What happened">{a.message}</td>
                  <td data-label="Attempt">
                    {to ? (
                      <Link to={to} aria-label={`Open the attempt that raised ${a.code} at ${when(a.at)}`}>
                        Open the attempt
                      </Link>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </PagedRows>
    </Page>
  );
}

/** An application's alerts of the last 24 h (its page), each opening its attempt. */
export function RecentAlerts({ appId }: { appId: string }) {
  const [since] = useState(() => new Date(Date.now() - 86_400_000).toISOString());
  const list = useQuery({
    queryKey: queryKeys.recentAlerts(appId, since),
    queryFn: () => body(client.GET('/v1/alerts', { params: { query: { applicationId: appId, since, limit: 20 } } })),
    refetchInterval: 5000,
  });
  return (
    <section aria-labelledby="app-alerts">
      <h2 id="app-alerts">Alerts of the last 24 hours</h2>
      {list.isPending ? (
        <Loading what="alerts" />
      ) : list.isError ? (
        <Failed error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="muted">No alerts in the last 24 hours.</p>
      ) : (
        <ul className="plain">
          {list.data.map((a) => {
            const to = consolePath(a.link);
            return (
              <li key={a.id}>
                <code>{a.code}</code> <span className="muted small">{when(a.at)}</span>
                {a.count > 1 ? <span className="small"> ×{a.count}</span> : null}{' '}
                {to ? (
                  <Link to={to} aria-label={`Open the attempt that raised ${a.code} at ${when(a.at)}`}>
                    Open the attempt
                  </Link>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <p>
        <Link to={`/alerts?application=${appId}`}>All alerts</Link>
      </p>
    </section>
  );
}
