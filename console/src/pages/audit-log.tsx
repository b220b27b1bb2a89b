// The audit log: entries newest first, filtered by action, actor and time, one page at a time
// (Previous and Next), so the page never holds more than 50 entries however long the log is.
import { type FormEvent, useState } from 'react';
import { type AuditEvent, client, given, page } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { ChoiceFilter, FilterForm, TimeRangeFilter } from '../ui/filters.tsx';
import { Field } from '../ui/form.tsx';
import { Page } from '../ui/page.tsx';
import { Table } from '../ui/table.tsx';
import { PagedRows, usePaged } from '../ui/paged.tsx';
import { isoFromLocal, when } from '../ui/time.ts';

const ACTIONS = [
  'session.sign-in',
  'session.sign-out',
  'password.sign-in',
  'password.change',
  'api-key.create',
  'api-key.revoke',
  'api-key.sign-in',
  'application.create',
  'application.update',
  'application.delete',
  'application.secret.read',
  'application.secret.rotate',
  'address.claim',
  'address.move',
  'address.release',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.secret.read',
  'webhook.secret.rotate',
  'webhook.test',
  'delivery.resend',
  'webhook.recover',
];
const PAGE = 50;

interface Filters {
  action: string;
  actor: string;
  since: string;
  until: string;
}

/** The target as a path of the API (the href without its origin). */
const targetPath = (t: string) => {
  try {
    return new URL(t).pathname;
  } catch {
    return t;
  }
};

export function AuditLogPage() {
  const [filters, setFilters] = useState<Filters>({ action: '', actor: '', since: '', until: '' });
  const events = usePaged([...queryKeys.auditEvents, filters], (cursor) =>
    page<AuditEvent>(client.GET('/v1/audit-events', { params: { query: given({ ...filters, limit: PAGE, cursor }) } })),
  );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = new FormData(e.currentTarget);
    setFilters({
      action: String(v.get('action') ?? ''),
      actor: String(v.get('actor') ?? '').trim(),
      since: isoFromLocal(String(v.get('since') ?? '')),
      until: isoFromLocal(String(v.get('until') ?? '')),
    });
  };

  return (
    <Page title="Audit log">
      <FilterForm key={JSON.stringify(filters)} label="Filter the audit log" onSubmit={submit}>
        <ChoiceFilter label="Action" name="action" any="Any action" choices={ACTIONS} value={filters.action} />
        <Field
          label="Actor id"
          name="actor"
          defaultValue={filters.actor}
          placeholder="ak_… or a session or account id"
        />
        <TimeRangeFilter since={filters.since} until={filters.until} />
      </FilterForm>
      <PagedRows list={events} what="the audit log" empty="No entries match." pager="Pages of the audit log">
        {(rows) => (
          <Table
            caption="Audit log entries, newest first"
            heads={['When', 'Action', 'Outcome', 'Actor', 'Target', 'From']}
          >
            {rows.map((e) => (
              <tr key={e.id}>
                <td data-label="When">{when(e.at)}</td>
                <td data-label="Action">
                  <code>{e.action}</code>
                </td>
                <td data-label="Outcome" className={e.outcome === 'failure' ? 'problem' : undefined}>
                  {e.outcome}
                </td>
                <td data-label="Actor">
                  {e.actor.type}
                  {e.actor.name ? ` ${e.actor.name}` : ''}{' '}
                  <button
                    type="button"
                    className="link"
                    onClick={() => setFilters({ ...filters, actor: e.actor.id })}
                    aria-label={`Only entries by ${e.actor.type} ${e.actor.id}`}
                  >
                    <code>{e.actor.id.slice(0, 12)}</code>
                  </button>
                </td>
                <td data-label="Target" className="url">
                  {e.target ? targetPath(e.target) : '—'}
                </td>
                <td data-label="From" className="url">
                  {e.ip}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </PagedRows>
    </Page>
  );
}
