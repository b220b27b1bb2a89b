// An application: its URLs (edit), its signing secret (reveal, copy, rotate), its addresses
// (claim a number by exchange or city, create a token or SIP address, move, release), its
// webhooks, its alerts of the last 24 hours, and delete.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Application, body, client } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { Link, navigate } from '../router.ts';
import { Confirm } from '../ui/dialog.tsx';
import { Alert, Field, FormActions, fieldProblems, formValues, generalProblem } from '../ui/form.tsx';
import { Failed, Loading, NotLoaded, Page } from '../ui/page.tsx';
import { useDeletion } from '../ui/deletion.ts';
import { SigningSecret } from '../ui/secret.tsx';
import { Addresses } from './addresses.tsx';
import { RecentAlerts } from './alerts.tsx';
import { applicationFields } from './applications.tsx';
import type { RouteParams } from '../paths.ts';
import { Prop } from '../ui/prop.tsx';

const URLS: { key: keyof Application; label: string }[] = [
  { key: 'voiceUrl', label: 'Voice URL' },
  { key: 'messagingUrl', label: 'Messaging URL' },
  { key: 'voiceFallbackUrl', label: 'Voice fallback URL' },
  { key: 'messagingFallbackUrl', label: 'Messaging fallback URL' },
];

function EditApplication({ app, onDone }: { app: Application; onDone: () => void }) {
  const queries = useQueryClient();
  const save = useMutation({
    mutationFn: (fields: Record<string, string>) =>
      body(client.PUT('/v1/applications/{id}', { params: { path: { id: app.id } }, body: fields })),
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: queryKeys.applications });
      await queries.invalidateQueries({ queryKey: queryKeys.application(app.id) });
      onDone();
    },
  });
  const problems = fieldProblems(save.error);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save.mutate(applicationFields(formValues(e.currentTarget), true));
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="edit-app" noValidate>
      <h2 id="edit-app">Edit application</h2>
      <Field label="Name" name="name" defaultValue={app.name} required problem={problems.name} autoFocus />
      {URLS.map((u) => (
        <Field
          key={u.key}
          label={u.label}
          name={u.key}
          type="url"
          inputMode="url"
          defaultValue={String(app[u.key] ?? '')}
          problem={problems[u.key]}
        />
      ))}
      <p className="muted small">An empty URL clears it; a voice or a messaging URL must stay.</p>
      <Alert message={generalProblem(save.error, ['name', ...URLS.map((u) => u.key)])} />
      <FormActions submit="Save" disabled={save.isPending} onCancel={onDone} />
    </form>
  );
}

function Webhooks({ appId }: { appId: string }) {
  const list = useQuery({
    queryKey: queryKeys.applicationWebhooks(appId),
    queryFn: () => body(client.GET('/v1/applications/{appId}/webhooks', { params: { path: { appId } } })),
  });
  return (
    <section aria-labelledby="app-webhooks">
      <h2 id="app-webhooks">Webhooks</h2>
      {list.isPending ? (
        <Loading what="webhooks" />
      ) : list.isError ? (
        <Failed error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="muted">No webhooks of this application.</p>
      ) : (
        <ul className="plain">
          {list.data.map((w) => (
            <li key={w.id}>
              <Link to={`/applications/${appId}/webhooks/${w.id}`}>{w.name || `${w.event} → ${w.targetUrl}`}</Link>{' '}
              <span className="muted small">
                {w.event} on {w.resource}
                {w.enabled ? '' : ' (disabled)'}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to={`/webhooks?application=${appId}`}>Manage this application’s webhooks</Link> ·{' '}
        <Link to={`/sessions?application=${appId}`}>Its sessions, deliveries and charts</Link>
      </p>
    </section>
  );
}

export function ApplicationPage({ params }: { params: RouteParams }) {
  const id = params.id!;
  const app = useQuery({
    queryKey: queryKeys.application(id),
    queryFn: () => body(client.GET('/v1/applications/{id}', { params: { path: { id } } })),
  });
  const [editing, setEditing] = useState(false);
  const deletion = useDeletion({
    remove: () => body(client.DELETE('/v1/applications/{id}', { params: { path: { id } } })),
    key: queryKeys.application(id),
    lists: queryKeys.applications,
    done: () => navigate('/applications'),
  });

  if (app.isPending || app.isError)
    return <NotLoaded query={app} kind="Application" back="/applications" backText="Back to your applications" />;
  const a = app.data;
  return (
    <Page
      title={a.name}
      actions={
        <>
          <button type="button" onClick={() => setEditing(true)} aria-expanded={editing}>
            Edit
          </button>
          <button type="button" className="danger" onClick={deletion.ask}>
            Delete
          </button>
        </>
      }
    >
      <p className="muted small">
        <Link to="/applications">Applications</Link> / <code>{a.id}</code>
      </p>
      {editing ? <EditApplication app={a} onDone={() => setEditing(false)} /> : null}
      <section aria-labelledby="urls">
        <h2 id="urls">URLs</h2>
        <dl className="props">
          {URLS.map((u) => (
            <Prop key={u.key} name={u.label} className="url">
              {String(a[u.key] ?? '—')}
            </Prop>
          ))}
        </dl>
      </section>
      <SigningSecret
        owner={{ kind: 'applications', id }}
        headingId="secret"
        about="Signs every session POST to this application (Standard Webhooks). Reading it is recorded in the audit log."
        rotateTitle="Rotate the signing secret?"
        rotateText="A new secret signs from now on; the current one stays valid for 24 hours so your application can switch."
      />
      <Addresses appId={id} />
      <Webhooks appId={id} />
      <RecentAlerts appId={id} />
      <Alert message={generalProblem(deletion.mutation.error)} />
      <Confirm {...deletion.confirm} title={`Delete ${a.name}?`} confirm="Delete application" danger>
        <p>Its numbers go back to the inventory; its tokens and SIP addresses are gone. This cannot be undone.</p>
      </Confirm>
    </Page>
  );
}
