// API keys: create (the key is shown this once, with a copy button), list, revoke.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type ApiKey, body, client, type Schemas } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { CopyButton } from '../ui/copy.tsx';
import { ConfirmItem } from '../ui/dialog.tsx';
import { Alert, Field, fieldProblems, formValues, generalProblem, Select } from '../ui/form.tsx';
import { Failed, Loading, Page } from '../ui/page.tsx';
import { Table } from '../ui/table.tsx';
import { when } from '../ui/time.ts';

export function ApiKeysPage() {
  const queries = useQueryClient();
  const keys = useQuery({ queryKey: queryKeys.apiKeys, queryFn: () => body(client.GET('/v1/api-keys')) });
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const [said, setSaid] = useState<string>();
  const create = useMutation({
    mutationFn: (key: Schemas['ApiKeyCreate']) => body(client.POST('/v1/api-keys', { body: key })),
    onSuccess: async (r) => {
      setCreated({ name: r.name, key: r.key });
      setSaid(undefined);
      await queries.invalidateQueries({ queryKey: queryKeys.apiKeys });
    },
  });
  const revoke = useMutation({
    mutationFn: (k: ApiKey) => body(client.DELETE('/v1/api-keys/{id}', { params: { path: { id: k.id } } })),
    onSuccess: async (_r, k) => {
      setSaid(`Revoked ${k.name}: it no longer authenticates.`);
      await queries.invalidateQueries({ queryKey: queryKeys.apiKeys });
    },
  });
  const problems = fieldProblems(create.error);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    create.mutate(formValues(form) as Schemas['ApiKeyCreate'], { onSuccess: () => form.reset() });
  };

  return (
    <Page title="API keys">
      <p className="muted">
        Keys let programs use the API without your password: <code>Authorization: Bearer sbk_…</code>. A read key may
        only read.
      </p>
      <form className="card" onSubmit={submit} aria-labelledby="new-key" noValidate>
        <h2 id="new-key">Create an API key</h2>
        <div className="filters">
          <Field label="Name" name="name" required problem={problems.name} placeholder="ci" />
          <Select label="Scope" name="scope" problem={problems.scope}>
            <option value="full">Full: read and write</option>
            <option value="read">Read only</option>
          </Select>
          <button type="submit" className="primary" disabled={create.isPending}>
            Create key
          </button>
        </div>
        <Alert message={generalProblem(create.error, ['name', 'scope'])} />
      </form>
      {created ? (
        <section className="card key-once" aria-labelledby="key-once">
          <h2 id="key-once">Your new key “{created.name}”</h2>
          <p>Copy it now: it is shown only this once, and Switchboard keeps no copy it could show again.</p>
          <div className="secret">
            <output aria-label="Your new key" className="code">
              {created.key}
            </output>
            <CopyButton value={created.key} label="Copy key" />
            <button type="button" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </div>
        </section>
      ) : null}
      <p role="status" className="status">
        {said}
      </p>
      <Alert message={generalProblem(revoke.error)} />
      {keys.isPending ? (
        <Loading what="API keys" />
      ) : keys.isError ? (
        <Failed error={keys.error} retry={() => keys.refetch()} />
      ) : keys.data.length === 0 ? (
        <p>No API keys yet.</p>
      ) : (
        <Table caption="API keys" heads={['Name', 'Key', 'Scope', 'Created', 'Last used', 'Actions']}>
          {keys.data.map((k) => (
            <tr key={k.id}>
              <td data-label="Name">{k.name}</td>
              <td data-label="Key">
                <code>{k.prefix}…</code>
              </td>
              <td data-label="Scope">{k.scope}</td>
              <td data-label="Created">{when(k.createdAt)}</td>
              <td data-label="Last used">{k.lastUsedAt ? when(k.lastUsedAt) : 'never'}</td>
              <td data-label="Actions">
                <button type="button" className="danger" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <ConfirmItem
        item={revoking}
        clear={() => setRevoking(undefined)}
        act={(k) => revoke.mutate(k)}
        title={`Revoke ${revoking?.name ?? ''}?`}
        confirm="Revoke key"
      >
        <p>Every program using it is refused within a second. This cannot be undone.</p>
      </ConfirmItem>
    </Page>
  );
}
