// Applications: a searchable list (the API's pages of 1,000 fetched one after the other, the first
// shown as soon as it arrives; searched in memory and drawn 50 rows at a time, so 10,000 stay
// fast), and the "New application" form.
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { api, call, listAll } from '../api.ts';
import { Link, navigate } from '../router.ts';
import { Alert, Field, fieldProblems, formValues, generalProblem } from '../ui/form.tsx';
import { Failed, Loading, Page } from '../ui/page.tsx';

export interface Application {
  id: string;
  href: string;
  name: string;
  voiceUrl?: string;
  messagingUrl?: string;
  voiceFallbackUrl?: string;
  messagingFallbackUrl?: string;
  environment?: string;
  apiType?: string;
}

const PAGE = 50;
const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
export const applicationsQuery = {
  queryKey: ['applications'],
  queryFn: () => listAll<Application>('/v1/applications?limit=1000'),
};

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
    mutationFn: (body: Record<string, string>) => api.post<{ href: string }>('/v1/applications', body),
    onSuccess: async ({ href }) => {
      await queries.invalidateQueries({ queryKey: ['applications'] });
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
      <div className="actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          Create
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function ApplicationsPage() {
  const pages = useInfiniteQuery({
    queryKey: ['applications', 'pages'],
    initialPageParam: '/v1/applications?limit=1000',
    queryFn: ({ pageParam }) => call<Application[]>('GET', pageParam),
    getNextPageParam: (last) => last.next,
  });
  // The next page is asked for as soon as one arrives, until the list is complete.
  useEffect(() => {
    if (pages.hasNextPage && !pages.isFetchingNextPage && !pages.isError) void pages.fetchNextPage();
  }, [pages.hasNextPage, pages.isFetchingNextPage, pages.isError, pages.fetchNextPage]);
  // By name, numbers in names in numeric order ("App 9" before "App 10").
  const all = useMemo(
    () => pages.data?.pages.flatMap((p) => p.body).sort((a, b) => byName.compare(a.name, b.name)),
    [pages.data],
  );
  const complete = !pages.hasNextPage;
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [creating, setCreating] = useState(false);
  const found = useMemo(() => {
    const words = search.toLowerCase().split(/\s+/).filter(Boolean);
    if (!all) return [];
    if (!words.length) return all;
    // Every word is in the name or a URL; or the search is the application's whole id.
    return all.filter((a) => {
      if (words.length === 1 && words[0] === a.id) return true;
      const text = `${a.name} ${a.voiceUrl ?? ''} ${a.messagingUrl ?? ''}`.toLowerCase();
      return words.every((w) => text.includes(w));
    });
  }, [all, search]);
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
      {pages.isPending ? (
        <Loading what="applications" />
      ) : pages.isError && !all?.length ? (
        <Failed error={pages.error} retry={() => pages.refetch()} />
      ) : !all ? null : all.length === 0 ? (
        <p>
          No applications yet. Create one with “New application”: it needs a name and the URL Switchboard POSTs calls
          to.
        </p>
      ) : (
        <>
          {pages.isError ? <Failed error={pages.error} retry={() => pages.fetchNextPage()} /> : null}
          <p className="muted" aria-live="polite">
            {!complete
              ? `${all.length} applications loaded, loading the rest…`
              : found.length === all.length
                ? `${found.length} applications`
                : `${found.length} of ${all.length} applications match`}
          </p>
          <div className="table-wrap">
            <table className="stack compact">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Voice URL</th>
                  <th scope="col">Messaging URL</th>
                </tr>
              </thead>
              <tbody>
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
              </tbody>
            </table>
          </div>
          {pageCount > 1 ? (
            <nav className="pager" aria-label="Pages of applications">
              <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span>
                Page {page + 1} of {pageCount}
              </span>
              <button type="button" disabled={page + 1 >= pageCount} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </nav>
          ) : null}
        </>
      )}
    </Page>
  );
}
