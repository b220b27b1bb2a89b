// One webhook subscription: its settings (edit, enable or disable, delete), its signing secret
// (reveal, copy, rotate), a test send and its result, its deliveries chart, its deliveries with
// filters, its delivery settings, and replaying the failed ones by filter.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { body, client, type Webhook } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { Link, navigate } from '../router.ts';
import { Confirm } from '../ui/dialog.tsx';
import { Alert, Field, FormActions, fieldProblems, formValues, generalProblem } from '../ui/form.tsx';
import { NotLoaded, Page } from '../ui/page.tsx';
import { useDeletion } from '../ui/deletion.ts';
import { SigningSecret } from '../ui/secret.tsx';
import { StatsChart } from '../ui/stats-chart.tsx';
import { TextArea } from '../ui/textarea.tsx';
import { when } from '../ui/time.ts';
import { Deliveries } from './deliveries.tsx';
import { Replay } from './replay.tsx';
import { idOf, useWebhookUpdate, webhookName } from './webhook-model.ts';
import { DeliverySettings } from './webhook-settings.tsx';
import { parseWebhookTexts } from './webhooks.tsx';
import type { RouteParams } from '../paths.ts';
import { Prop } from '../ui/prop.tsx';

const headersText = (h: Record<string, string> | undefined) =>
  Object.entries(h ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

function EditWebhook({ w, onDone }: { w: Webhook; onDone: () => void }) {
  const [local, setLocal] = useState<Record<string, string>>({});
  const save = useWebhookUpdate(w.id, onDone);
  const problems = { ...fieldProblems(save.error), ...local };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    const { payload, headers, problems: mine } = parseWebhookTexts(v);
    setLocal(mine);
    if (Object.keys(mine).length) return;
    const body: Record<string, unknown> = {
      name: v.name?.trim() ?? '',
      resource: v.resource?.trim(),
      targetUrl: v.targetUrl?.trim(),
      payload: payload ?? {},
    };
    // Header values are write-only (they read as ***): the headers are sent only when changed, and
    // then every value must be typed again, as a PUT replaces them all.
    if ((v.headers ?? '') !== headersText(w.headers)) {
      const kept = Object.entries(headers ?? {}).filter(([, value]) => value === '***');
      if (kept.length) {
        setLocal({
          headers: `type the value of ${kept.map(([k]) => k).join(', ')} again: saved values cannot be read back`,
        });
        return;
      }
      body.headers = headers ?? {};
    }
    save.mutate(body);
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="edit-webhook" noValidate>
      <h2 id="edit-webhook">Edit webhook</h2>
      <Field label="Name" name="name" defaultValue={w.name ?? ''} problem={problems.name} autoFocus />
      <Field
        label="Resource"
        name="resource"
        defaultValue={w.resource}
        problem={problems.resource}
        hint="call, sms, transcription or all; several with commas."
      />
      <Field
        label="Target URL"
        name="targetUrl"
        type="url"
        inputMode="url"
        defaultValue={w.targetUrl}
        problem={problems.targetUrl}
      />
      <TextArea
        label="Payload"
        name="payload"
        defaultValue={w.payload ? JSON.stringify(w.payload, null, 2) : ''}
        problem={problems.payload}
      />
      <TextArea
        label="Custom headers"
        name="headers"
        defaultValue={headersText(w.headers)}
        problem={problems.headers}
        hint="One per line: Name: value. Values read as ***: leave them all untouched to keep them, or type every value again."
      />
      <Alert message={generalProblem(save.error, ['name', 'resource', 'targetUrl', 'payload', 'headers'])} />
      <FormActions submit="Save" disabled={save.isPending} onCancel={onDone} />
    </form>
  );
}

function SendTest({ id }: { id: string }) {
  const queries = useQueryClient();
  const test = useMutation({
    mutationFn: () => body(client.POST('/v1/webhooks/{id}/test', { params: { path: { id } }, body: {} })),
    onSettled: async () => {
      await queries.invalidateQueries({ queryKey: queryKeys.deliveries });
      await queries.invalidateQueries({ queryKey: queryKeys.stats });
      await queries.invalidateQueries({ queryKey: queryKeys.webhook(id) });
    },
  });
  const r = test.data;
  const ok = r && r.status !== null && r.status >= 200 && r.status < 300;
  return (
    <section aria-labelledby="wh-test">
      <h2 id="wh-test">Test</h2>
      <p className="muted small">
        Sends a signed notification of event “test” now, also when the webhook is disabled. It is not retried.
      </p>
      <div className="actions">
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
          Send test
        </button>
        <p role="status" className={ok ? 'status' : 'status problem'}>
          {test.isPending
            ? 'Sending…'
            : r
              ? `${ok ? 'Test delivered' : 'Test failed'}: ${r.status !== null ? `answered ${r.status}` : 'no answer'} in ${r.durationMs} ms${
                  r.error ? ` (${r.error})` : ''
                }.`
              : ''}
        </p>
        {r ? <Link to={`/webhooks/${id}/deliveries/${idOf(r.href)}`}>See the test’s delivery</Link> : null}
      </div>
      <Alert message={generalProblem(test.error)} />
    </section>
  );
}

export function WebhookPage({ params }: { params: RouteParams }) {
  const id = params.id!;
  const hook = useQuery({
    queryKey: queryKeys.webhook(id),
    queryFn: () => body(client.GET('/v1/webhooks/{id}', { params: { path: { id } } })),
    refetchInterval: 10_000,
  });
  const [editing, setEditing] = useState(false);
  const toggle = useWebhookUpdate(id);
  const deletion = useDeletion({
    remove: () => body(client.DELETE('/v1/webhooks/{id}', { params: { path: { id } } })),
    key: queryKeys.webhook(id),
    lists: queryKeys.webhooks,
    done: () => navigate(hook.data?.applicationId ? `/webhooks?application=${hook.data.applicationId}` : '/webhooks'),
  });

  if (hook.isPending || hook.isError)
    return <NotLoaded query={hook} kind="Webhook" back="/webhooks" backText="Back to the webhooks" />;
  const w = hook.data;
  const name = webhookName(w);
  return (
    <Page
      title={name}
      actions={
        <>
          <button type="button" onClick={() => setEditing(true)} aria-expanded={editing}>
            Edit
          </button>
          <button type="button" onClick={() => toggle.mutate({ enabled: !w.enabled })} disabled={toggle.isPending}>
            {w.enabled ? 'Disable' : 'Enable'}
          </button>
          <button type="button" className="danger" onClick={deletion.ask}>
            Delete
          </button>
        </>
      }
    >
      <p className="muted small">
        {w.applicationId ? (
          <>
            <Link to={`/webhooks?application=${w.applicationId}`}>Webhooks of the application</Link> /{' '}
          </>
        ) : (
          <>
            <Link to="/webhooks">Webhooks of the account</Link> /{' '}
          </>
        )}
        <code>{w.id}</code>
      </p>
      <Alert message={generalProblem(toggle.error ?? deletion.mutation.error)} />
      {editing ? <EditWebhook w={w} onDone={() => setEditing(false)} /> : null}
      <dl className="props">
        <Prop name="State" className={w.enabled ? undefined : 'problem'}>
          {w.enabled ? 'Enabled' : `Disabled${w.disabledReason ? `: ${w.disabledReason}` : ''}`}
        </Prop>
        <Prop name="Event">
          <code>{w.event}</code>
        </Prop>
        <Prop name="Resource">{w.resource}</Prop>
        <Prop name="Target URL" className="url">
          {w.targetUrl}
        </Prop>
        <Prop name="Level">
          {w.applicationId ? (
            <Link to={`/applications/${w.applicationId}`}>Application {w.applicationId}</Link>
          ) : (
            'Account'
          )}
        </Prop>
        <Prop name="Last attempt">
          {w.lastAttemptAt ? `${when(w.lastAttemptAt)}, ${w.lastStatus ?? 'no answer'}` : 'None yet'}
          {w.consecutiveFailures > 0 ? ` · ${w.consecutiveFailures} failures in a row` : ''}
        </Prop>
        <Prop name="Custom headers" className="url">
          {w.headers ? headersText(w.headers) : 'None'}
        </Prop>
        <Prop name="Payload" className="url">
          {w.payload ? JSON.stringify(w.payload) : 'None'}
        </Prop>
      </dl>
      <DeliverySettings w={w} />
      <SendTest id={id} />
      <StatsChart owner={{ kind: 'webhooks', id }} subject={name} kind="deliveries" />
      <Deliveries owner={{ kind: 'webhooks', id }} linkBase={`/webhooks/${id}/deliveries`} events={[w.event, 'test']} />
      <Replay id={id} event={w.event} />
      <SigningSecret
        owner={{ kind: 'webhooks', id }}
        headingId="wh-secret"
        about="Verify the webhook-signature header of each notification with it (Standard Webhooks)."
        rotateTitle="Rotate the webhook’s signing secret?"
        rotateText="A new secret signs from now on; the current one stays valid for 24 hours so your receiver can switch."
      />
      <Confirm {...deletion.confirm} title={`Delete the webhook ${name}?`} confirm="Delete webhook" danger>
        <p>No more notifications go to {w.targetUrl}.</p>
      </Confirm>
    </Page>
  );
}
