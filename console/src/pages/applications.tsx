// Applications: a searchable list (every page of the API's list fetched once, searched and shown
// 50 at a time, so 10,000 stay fast), and the "New application" form.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { api, listAll } from '../api.ts';
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
  const list = useQuery(applicationsQuery);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [creating, setCreating] = useState(false);
  const found = useMemo(() => {
    const words = search.toLowerCase().split(/\s+/).filter(Boolean);
    const all = list.data ?? [];
    if (!words.length) return all;
    return all.filter((a) => {
      const text = `${a.name} ${a.id} ${a.voiceUrl ?? ''} ${a.messagingUrl ?? ''}`.toLowerCase();
      return words.every((w) => text.includes(w));
    });
  }, [list.data, search]);
  const pages = Math.max(1, Math.ceil(found.length / PAGE));
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
          placeholder="Name, id or URL"
        />
      </div>
      {list.isPending ? (
        <Loading what="applications" />
      ) : list.isError ? (
        <Failed error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <p>
          No applications yet. Create one with “New application”: it needs a name and the URL Switchboard POSTs calls
          to.
        </p>
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {found.length === list.data.length
              ? `${found.length} applications`
              : `${found.length} of ${list.data.length} applications match`}
          </p>
          <div className="table-wrap">
            <table className="stack">
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
                    <td data-label="Voice URL" className="url">
                      {a.voiceUrl ?? '—'}
                    </td>
                    <td data-label="Messaging URL" className="url">
                      {a.messagingUrl ?? '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 ? (
            <nav className="pager" aria-label="Pages of applications">
              <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span>
                Page {page + 1} of {pages}
              </span>
              <button type="button" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </nav>
          ) : null}
        </>
      )}
    </Page>
  );
}
