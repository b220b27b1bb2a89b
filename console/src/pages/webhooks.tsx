// Webhook subscriptions of one level (the account's, or one application's): the list and the
// "New webhook" form (event, resource, target URL, name, payload, custom headers).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, body, client, listAll, type Schemas } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { Link, navigate, useQueryParams } from '../router.ts';
import { ApplicationPicker, useApplication } from '../ui/application-picker.tsx';
import { Alert, Field, FormActions, fieldProblems, formValues, generalProblem, Select } from '../ui/form.tsx';
import { Failed, Loading, Page } from '../ui/page.tsx';
import { Table } from '../ui/table.tsx';
import { TextArea } from '../ui/textarea.tsx';
import { when } from '../ui/time.ts';
import { DeliverySettingsFields, SETTINGS_FIELDS, settingProblems, settingsBody } from './webhook-settings.tsx';
import { idOf, webhookName } from './webhook-model.ts';

const eventTypesQuery = {
  queryKey: queryKeys.eventTypes,
  queryFn: () => body(client.GET('/v1/event-types')),
  staleTime: Infinity,
};

/** `Name: value` lines as a headers object; a line without a colon is a problem. */
function parseHeaders(text: string): { headers?: Record<string, string>; problem?: string } {
  const headers: Record<string, string> = {};
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { problem: `line ${i + 1}: write each header as Name: value` };
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers };
}

/** A JSON object typed in a field, or a problem. */
function parsePayload(text: string): { payload?: Record<string, unknown>; problem?: string } {
  if (!text.trim()) return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v))
      return { problem: 'must be a JSON object: {"key": "value"}' };
    return { payload: v as Record<string, unknown> };
  } catch (e) {
    return { problem: `not JSON: ${(e as Error).message}` };
  }
}

/**
 * The payload and custom headers typed in a webhook form, parsed, with the problem of each by field
 * name (none when both parse).
 */
export function parseWebhookTexts(v: Record<string, string>): {
  payload?: Record<string, unknown> | undefined;
  headers?: Record<string, string> | undefined;
  problems: Record<string, string>;
} {
  const payload = parsePayload(v.payload ?? '');
  const headers = parseHeaders(v.headers ?? '');
  const problems: Record<string, string> = {};
  if (payload.problem) problems.payload = payload.problem;
  if (headers.problem) problems.headers = headers.problem;
  return { payload: payload.payload, headers: headers.headers, problems };
}

type WebhookCreate = Schemas['WebhookCreate'];

/** A new webhook of a level: the account's or an application's. */
const createWebhook = (appId: string | undefined, created: WebhookCreate) =>
  appId
    ? client.POST('/v1/applications/{appId}/webhooks', { params: { path: { appId } }, body: created })
    : client.POST('/v1/webhooks', { body: created });

/** The webhooks of a level, one page. */
const listWebhooks = (appId: string | undefined, cursor: string | undefined) =>
  appId
    ? client.GET('/v1/applications/{appId}/webhooks', { params: { path: { appId }, query: { limit: 100, cursor } } })
    : client.GET('/v1/webhooks', { params: { query: { limit: 100, cursor } } });

function NewWebhook({ appId, onDone }: { appId: string | undefined; onDone: () => void }) {
  const queries = useQueryClient();
  const types = useQuery(eventTypesQuery);
  const offered = (types.data ?? []).filter((t) => (appId ? t.applicationLevel : true));
  const [event, setEvent] = useState<string>();
  const chosen = offered.find((t) => t.name === event) ?? offered[0];
  const [local, setLocal] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: (created: Record<string, unknown>) => body(createWebhook(appId, created as WebhookCreate)),
    onSuccess: async ({ href }) => {
      await queries.invalidateQueries({ queryKey: queryKeys.webhooks });
      navigate(`/webhooks/${idOf(href)}`);
    },
  });
  const problems = { ...fieldProblems(create.error), ...settingProblems(create.error), ...local };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = formValues(e.currentTarget);
    const { payload, headers, problems: mine } = parseWebhookTexts(v);
    const { settings, problems: theirs } = settingsBody(v);
    setLocal({ ...mine, ...theirs });
    if (Object.keys(mine).length || Object.keys(theirs).length) return;
    create.mutate({
      event: v.event,
      resource: v.resource,
      targetUrl: v.targetUrl?.trim(),
      ...(v.name?.trim() ? { name: v.name.trim() } : {}),
      ...(payload ? { payload } : {}),
      ...(headers && Object.keys(headers).length ? { headers } : {}),
      enabled: v.enabled === 'on',
      ...settings,
    });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="new-webhook" noValidate>
      <h2 id="new-webhook">New webhook</h2>
      {types.isError ? <Failed error={types.error} retry={() => types.refetch()} /> : null}
      <Select
        label="Event"
        name="event"
        value={chosen?.name ?? ''}
        onChange={(e) => setEvent(e.target.value)}
        problem={problems.event}
      >
        {offered.map((t) => (
          <option key={t.name} value={t.name}>
            {t.name}: {t.description}
          </option>
        ))}
      </Select>
      <Select
        label="Resource"
        name="resource"
        key={chosen?.name}
        defaultValue={chosen?.resources.at(-1)}
        problem={problems.resource}
      >
        {(chosen?.resources ?? []).map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </Select>
      <Field
        label="Target URL"
        name="targetUrl"
        type="url"
        inputMode="url"
        required
        problem={problems.targetUrl}
        hint="Where the signed notifications are POSTed (http or https)."
      />
      <Field label="Name" name="name" problem={problems.name} />
      <TextArea
        label="Payload"
        name="payload"
        problem={problems.payload}
        hint='Optional JSON object sent with every notification, e.g. {"team": "billing"}.'
      />
      <TextArea
        label="Custom headers"
        name="headers"
        problem={problems.headers}
        hint="Optional, one per line: X-Team: billing. An Authorization value is write-only."
      />
      <DeliverySettingsFields problems={problems} />
      <div className="check">
        <input id="new-webhook-enabled" type="checkbox" name="enabled" defaultChecked />
        <label htmlFor="new-webhook-enabled">Enabled</label>
      </div>
      <Alert
        message={generalProblem(create.error, [
          'event',
          'resource',
          'targetUrl',
          'name',
          'payload',
          'headers',
          ...SETTINGS_FIELDS,
        ])}
      />
      <FormActions submit="Create webhook" disabled={create.isPending || !chosen} onCancel={onDone} />
    </form>
  );
}

export function WebhooksPage() {
  const params = useQueryParams();
  const appId = params.get('application') || undefined;
  const [creating, setCreating] = useState(params.get('new') === '1');
  const list = useQuery({
    queryKey: queryKeys.webhookList(appId),
    queryFn: () => listAll((cursor) => listWebhooks(appId, cursor)),
  });
  const { app } = useApplication(appId);
  const notFound = list.error instanceof ApiError && list.error.status === 404;

  return (
    <Page
      title="Webhooks"
      actions={
        <button
          type="button"
          className="primary"
          onClick={() => setCreating(true)}
          aria-expanded={creating}
          disabled={notFound}
        >
          New webhook
        </button>
      }
    >
      <p className="muted small">
        Switchboard POSTs signed notifications (delivery receipts, call records) to these URLs. Account-level webhooks
        hear every application; an application’s webhooks hear only it.
      </p>
      <ApplicationPicker
        label="Level"
        none="The account"
        value={appId}
        onChange={(id) => navigate(id ? `/webhooks?application=${id}` : '/webhooks')}
      />
      {creating && !notFound ? <NewWebhook key={appId ?? ''} appId={appId} onDone={() => setCreating(false)} /> : null}
      {list.isPending ? (
        <Loading what="webhooks" />
      ) : list.isError ? (
        <Failed error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <p>
          No webhooks {app ? `of ${app.name}` : 'at the account level'} yet. Create one with “New webhook”: it needs an
          event, a resource and the URL to POST to.
        </p>
      ) : (
        <Table
          caption={<>Webhooks {app ? `of ${app.name}` : 'of the account'}</>}
          heads={['Webhook', 'Event', 'Resource', 'State', 'Last attempt']}
        >
          {list.data.map((w) => (
            <tr key={w.id}>
              <td data-label="Webhook">
                <Link to={`/webhooks/${w.id}`}>{webhookName(w)}</Link>
                <div className="url muted">{w.targetUrl}</div>
              </td>
              <td data-label="Event">
                <code>{w.event}</code>
              </td>
              <td data-label="Resource">{w.resource}</td>
              <td data-label="State" className={w.enabled ? undefined : 'problem'}>
                {w.enabled ? 'Enabled' : 'Disabled'}
                {w.consecutiveFailures > 0 ? ` · ${w.consecutiveFailures} failing` : ''}
              </td>
              <td data-label="Last attempt">
                {w.lastAttemptAt ? `${when(w.lastAttemptAt)} (${w.lastStatus ?? 'no answer'})` : '—'}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
}
