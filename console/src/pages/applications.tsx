// Applications: a searchable list (the API's pages of 1,000 fetched one after the other, the first
// shown as soon as it arrives; searched in memory and drawn 50 rows at a time, so 10,000 stay
// fast), and the "New application" form. The pages are one shared query (`useApplications`), which
// the application picker reads too.
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { type Application, body, client, page } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { Link, navigate } from '../router.ts';
import { Alert, Field, FormActions, fieldProblems, formValues, generalProblem } from '../ui/form.tsx';
import { Failed, Loading, Page } from '../ui/page.tsx';
import { Table } from '../ui/table.tsx';
import { PageNav } from '../ui/paged.tsx';

const PAGE = 50;
const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export interface Applications {
  /** The applications loaded so far, by name (numbers in names in numeric order: "App 9" before "App 10"). */
  all: Application[] | undefined;
  /** Whether every page is loaded. */
  complete: boolean;
  pending: boolean;
  error: unknown;
  /** Asks again for what failed (the first page, or the next one). */
  retry: () => void;
}

/**
 * The account's applications, a page of 1,000 at a time (one query the whole console shares).
 * The first page is asked for at once; the next ones, one after the other, only while `every`.
 */
export function useApplications(every: boolean): Applications {
  const pages = useInfiniteQuery({
    queryKey: queryKeys.applicationPages,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam: cursor }) =>
      page(client.GET('/v1/applications', { params: { query: { limit: 1000, cursor } } })),
    getNextPageParam: (last) => last.next,
  });
  useEffect(() => {
    if (every && pages.hasNextPage && !pages.isFetchingNextPage && !pages.isError) void pages.fetchNextPage();
  }, [every, pages.hasNextPage, pages.isFetchingNextPage, pages.isError, pages.fetchNextPage]);
  const all = useMemo(
    () => pages.data?.pages.flatMap((p) => p.body).sort((a, b) => byName.compare(a.name, b.name)),
    [pages.data],
  );
  return {
    all,
    complete: !pages.hasNextPage,
    pending: pages.isPending,
    error: pages.error,
    retry: () => void (pages.data ? pages.fetchNextPage() : pages.refetch()),
  };
}

/** The applications a search finds: every word in the name or a URL, or the whole id. */
export function searchApplications(all: Application[], search: string): Application[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return all;
  return all.filter((a) => {
    if (words.length === 1 && words[0] === a.id.toLowerCase()) return true;
    const text = `${a.name} ${a.voiceUrl ?? ''} ${a.messagingUrl ?? ''}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** The fields of an application form, without the empty ones on create. */
export function applicationFields(v: Record<string, string>, keepEmpty: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['name', 'voiceUrl', 'messagingUrl', 'voiceFallbackUrl', 'messagingFallbackUrl'])
    if (v[k] !== undefined && (keepEmpty || v[k] !== '')) out[k] = v[k]!.trim();
  return out;
}

function NewApplication({ onDone }: { onDone: () => void }) {
  const queries = useQueryClient();
  const create = useMutation({
    mutationFn: (fields: Record<string, string>) => body(client.POST('/v1/applications', { body: fields })),
    onSuccess: async ({ href }) => {
      await queries.invalidateQueries({ queryKey: queryKeys.applications });
      navigate(`/applications/${href.split('/').pop()}`);
    },
  });
  const problems = fieldProblems(create.error);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    create.mutate(applicationFields(formValues(e.currentTarget), false));
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="new-app" noValidate>
      <h2 id="new-app">New application</h2>
      <Field label="Name" name="name" required problem={problems.name} autoFocus />
      <Field
        label="Voice URL"
        name="voiceUrl"
        type="url"
        inputMode="url"
        problem={problems.voiceUrl}
        hint="Where calls are POSTed; a voice or a messaging URL is needed."
      />
      <Field label="Messaging URL" name="messagingUrl" type="url" inputMode="url" problem={problems.messagingUrl} />
      <Alert message={generalProblem(create.error, ['name', 'voiceUrl', 'messagingUrl'])} />
      <FormActions submit="Create" disabled={create.isPending} onCancel={onDone} />
    </form>
  );
}

export function ApplicationsPage() {
  const { all, complete, pending, error, retry } = useApplications(true);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [creating, setCreating] = useState(false);
  const found = useMemo(() => searchApplications(all ?? [], search), [all, search]);
  const pageCount = Math.max(1, Math.ceil(found.length / PAGE));
  const shown = found.slice(page * PAGE, page * PAGE + PAGE);

  return (
    <Page
      title="Applications"
      actions={
        <button type="button" className="primary" onClick={() => setCreating(true)} aria-expanded={creating}>
          New application
        </button>
      }
    >
      {creating ? <NewApplication onDone={() => setCreating(false)} /> : null}
      <div className="field search">
        <label htmlFor="app-search">Search applications</label>
        <input
          id="app-search"
          type="search"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(0);
          }}
          placeholder="Name, URL or id"
        />
      </div>
      {pending ? (
        <Loading what="applications" />
      ) : error && !all?.length ? (
        <Failed error={error} retry={retry} />
      ) : !all ? null : all.length === 0 ? (
        <p>
          No applications yet. Create one with “New application”: it needs a name and the URL Switchboard POSTs calls
          to.
        </p>
      ) : (
        <>
          {error ? <Failed error={error} retry={retry} /> : null}
          <p className="muted" aria-live="polite">
            {!complete
              ? `${all.length} applications loaded, loading the rest…`
              : found.length === all.length
                ? `${found.length} applications`
                : `${found.length} of ${all.length} applications match`}
          </p>
          <Table heads={['Name', 'Voice URL', 'Messaging URL']} compact>
            {shown.map((a) => (
              <tr key={a.id}>
                <td data-label="Name">
                  <Link to={`/applications/${a.id}`}>{a.name}</Link>
                </td>
                <td data-label="Voice URL" className={a.voiceUrl ? 'url' : 'url empty'}>
                  {a.voiceUrl ?? '—'}
                </td>
                <td data-label="Messaging URL" className={a.messagingUrl ? 'url' : 'url empty'}>
                  {a.messagingUrl ?? '—'}
                </td>
              </tr>
            ))}
          </Table>
          <PageNav at={page} count={pageCount} label="Pages of applications" onPage={setPage} />
        </>
      )}
    </Page>
  );
}
