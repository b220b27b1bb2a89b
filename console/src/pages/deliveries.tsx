// The delivery attempts of a subscription or of an application, newest first, filtered by outcome,
// event, time and message id, one page of the API at a time.
import { type FormEvent, useState } from 'react';
import { type Delivery, given, page } from '../api.ts';
import { listDeliveries, type Owner } from '../api/owner.ts';
import { queryKeys } from '../api/query-keys.ts';
import { Link } from '../router.ts';
import { ChoiceFilter, FilterForm, TimeRangeFilter } from '../ui/filters.tsx';
import { Field } from '../ui/form.tsx';
import { PagedRows, usePaged } from '../ui/paged.tsx';
import { Table } from '../ui/table.tsx';
import { isoFromLocal, when } from '../ui/time.ts';

const OUTCOMES = ['succeeded', 'retrying', 'failed', 'cancelled'];
const PAGE = 25;

const NO_FILTERS: Filters = { outcome: '', event: '', since: '', until: '', messageId: '' };

interface Filters {
  outcome: Exclude<Delivery['outcome'], 'pending'> | '';
  event: string;
  since: string;
  until: string;
  messageId: string;
}

export function statusText(d: Pick<Delivery, 'statusCode' | 'error'>): string {
  return d.statusCode !== null ? String(d.statusCode) : d.error ? `no answer: ${d.error}` : 'no answer';
}

/**
 * `owner`: the webhook or the application whose deliveries these are; `linkBase`: the console's
 * path of one delivery without its id; `events`: the events to filter by.
 */
export function Deliveries({
  owner,
  linkBase,
  events,
  title = 'Deliveries',
}: {
  owner: Owner;
  linkBase: string;
  events: string[];
  title?: string;
}) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const list = usePaged(
    [...queryKeys.deliveriesOf(owner), filters],
    (cursor) => page(listDeliveries(owner, given({ ...filters, limit: PAGE, cursor }))),
    5000,
  );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = new FormData(e.currentTarget);
    const s = (k: string) => String(v.get(k) ?? '').trim();
    setFilters({
      outcome: s('outcome') as Filters['outcome'],
      event: s('event'),
      since: isoFromLocal(s('since')),
      until: isoFromLocal(s('until')),
      messageId: s('messageId'),
    });
  };
  const filtered = Object.values(filters).some(Boolean);

  return (
    <section aria-labelledby="deliveries-h">
      <h2 id="deliveries-h">{title}</h2>
      <FilterForm
        key={JSON.stringify(filters)}
        label={`Filter the ${title.toLowerCase()}`}
        onSubmit={submit}
        onClear={filtered ? () => setFilters(NO_FILTERS) : undefined}
      >
        <ChoiceFilter label="Outcome" name="outcome" any="Any outcome" choices={OUTCOMES} value={filters.outcome} />
        {events.length ? (
          <ChoiceFilter label="Event" name="event" any="Any event" choices={events} value={filters.event} />
        ) : (
          <Field label="Event" name="event" defaultValue={filters.event} />
        )}
        <TimeRangeFilter since={filters.since} until={filters.until} />
        <Field label="Message id" name="messageId" defaultValue={filters.messageId} placeholder="msg_… (webhook-id)" />
      </FilterForm>
      <PagedRows
        list={list}
        what="deliveries"
        empty={filtered ? 'No deliveries match these filters.' : 'No deliveries yet.'}
        pager={`Pages of ${title.toLowerCase()}`}
      >
        {(rows) => (
          <Table
            caption={<>{title}, newest first</>}
            heads={['When', 'Event', 'Outcome', 'Status', 'Duration', 'Attempt']}
          >
            {rows.map((d) => (
              <tr key={d.id}>
                <td data-label="When">
                  <Link
                    to={`${linkBase}/${d.id}`}
                    aria-label={`Delivery of ${when(d.createdAt)}, ${d.event}, ${d.outcome}`}
                  >
                    {when(d.createdAt)}
                  </Link>
                </td>
                <td data-label="Event">
                  <code>{d.event}</code>
                  {d.trigger !== 'event' ? <span className="muted small"> ({d.trigger})</span> : null}
                </td>
                <td data-label="Outcome" className={`outcome-${d.outcome}`}>
                  {d.outcome}
                </td>
                <td data-label="Status" className="url">
                  {statusText(d)}
                </td>
                <td data-label="Duration">{d.durationMs} ms</td>
                <td data-label="Attempt">{d.attempt}</td>
              </tr>
            ))}
          </Table>
        )}
      </PagedRows>
    </section>
  );
}
