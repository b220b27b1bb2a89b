// A subscription's delivery settings (docs/api.md#delivery-settings): the timeout of each attempt,
// ordering by key, a rate limit, OAuth2 client credentials and a client certificate, shown and
// edited. The OAuth2 client secret and the private key are write-only: the form shows whether they
// are set and takes a new value, never the stored one; a PUT that leaves a setting out keeps it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api.ts';
import { Alert, Field, FormActions, fieldProblems, formValues, generalProblem } from '../ui/form.tsx';
import { TextArea } from '../ui/textarea.tsx';
import { apiPath } from '../paths.ts';
import type { Webhook } from './webhook-model.ts';

const SETTINGS = ['timeoutMs', 'ordering', 'rateLimit', 'auth', 'tls'] as const;

/** A whole number from a form value; undefined when blank, NaN when not a number. */
function wholeNumber(v: string | undefined): number | undefined {
  const t = (v ?? '').trim();
  return t === '' ? undefined : /^\d+$/.test(t) ? Number(t) : Number.NaN;
}

/** The PUT body of the settings form, or the problems found before sending it. */
export function settingsBody(
  w: Webhook,
  v: Record<string, string>,
): { body: Record<string, unknown>; problems: Record<string, string> } {
  const body: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  const timeout = wholeNumber(v.timeoutMs);
  if (Number.isNaN(timeout)) problems.timeoutMs = 'must be a whole number of milliseconds';
  else if (timeout !== undefined && timeout !== w.timeoutMs) body.timeoutMs = timeout;

  const key = (v.orderingKey ?? '').trim();
  const hold = wholeNumber(v.maxHoldSeconds);
  if (Number.isNaN(hold)) problems.ordering = 'the hold must be a whole number of seconds';
  else if (key) body.ordering = { key, ...(hold !== undefined ? { maxHoldSeconds: hold } : {}) };
  else if (w.ordering) body.ordering = {};

  const rate = wholeNumber(v.perSecond);
  if (Number.isNaN(rate)) problems.rateLimit = 'must be a whole number per second';
  else if (rate !== undefined) body.rateLimit = { perSecond: rate };
  else if (w.rateLimit) body.rateLimit = {};

  const tokenUrl = (v.tokenUrl ?? '').trim();
  const clientId = (v.clientId ?? '').trim();
  const scope = (v.scope ?? '').trim();
  const secret = v.clientSecret ?? '';
  const authChanged =
    tokenUrl !== (w.auth?.tokenUrl ?? '') || clientId !== (w.auth?.clientId ?? '') || scope !== (w.auth?.scope ?? '');
  if (!tokenUrl && !clientId && !secret) {
    if (w.auth) body.auth = {};
  } else if (authChanged || secret) {
    if (!secret)
      problems.auth = w.auth
        ? 'type the client secret again: a saved secret cannot be read back'
        : 'give the client secret too';
    else
      body.auth = {
        type: 'oauth2_client_credentials',
        tokenUrl,
        clientId,
        clientSecret: secret,
        ...(scope ? { scope } : {}),
      };
  }

  const certificate = (v.clientCertificate ?? '').trim();
  const key2 = (v.privateKey ?? '').trim();
  if (v.removeTls === 'on') body.tls = {};
  else if (certificate || key2) {
    if (!certificate || !key2) problems.tls = 'give both the certificate and its private key';
    else body.tls = { clientCertificate: certificate, privateKey: key2 };
  }
  return { body, problems };
}

function EditSettings({ w, onDone }: { w: Webhook; onDone: () => void }) {
  const queries = useQueryClient();
  const [local, setLocal] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => api.put(apiPath`/v1/webhooks/${w.id}`, body),
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: ['webhook', w.id] });
      onDone();
    },
  });
  const problems = { ...fieldProblems(save.error), ...local };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const { body, problems: mine } = settingsBody(w, formValues(e.currentTarget));
    setLocal(mine);
    if (Object.keys(mine).length) return;
    if (Object.keys(body).length === 0) return onDone();
    save.mutate(body);
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="edit-settings" noValidate>
      <h3 id="edit-settings">Edit delivery settings</h3>
      <Field
        label="Timeout per attempt (ms)"
        name="timeoutMs"
        inputMode="numeric"
        defaultValue={w.timeoutMs ?? ''}
        problem={problems.timeoutMs}
        hint="1,000 to 30,000; blank: the platform's default."
        autoFocus
      />
      <fieldset>
        <legend>Ordering by key</legend>
        <Field
          label="Ordering key"
          name="orderingKey"
          defaultValue={w.ordering?.key ?? ''}
          problem={problems.ordering}
          hint="A field of the event's data, such as sessionId or messageId; blank: no ordering."
        />
        <Field
          label="Longest hold (seconds)"
          name="maxHoldSeconds"
          inputMode="numeric"
          defaultValue={w.ordering?.maxHoldSeconds ?? ''}
          hint="1 to 86,400; blank: 3,600."
        />
      </fieldset>
      <Field
        label="Rate limit (deliveries per second)"
        name="perSecond"
        inputMode="numeric"
        defaultValue={w.rateLimit?.perSecond ?? ''}
        problem={problems.rateLimit}
        hint="1 to 1,000; deliveries past it wait, they do not fail. Blank: no limit."
      />
      <fieldset>
        <legend>OAuth2 client credentials</legend>
        <Field
          label="Token URL"
          name="tokenUrl"
          type="url"
          inputMode="url"
          defaultValue={w.auth?.tokenUrl ?? ''}
          problem={problems.auth}
          hint="Blank the token URL, client ID and secret to stop using OAuth2."
        />
        <Field label="Client ID" name="clientId" defaultValue={w.auth?.clientId ?? ''} />
        <Field
          label="Client secret"
          name="clientSecret"
          type="password"
          autoComplete="off"
          hint={w.auth ? 'Set. Leave blank to keep it; type it again to change any OAuth2 field.' : undefined}
        />
        <Field label="Scope (optional)" name="scope" defaultValue={w.auth?.scope ?? ''} />
      </fieldset>
      <fieldset>
        <legend>Client certificate (mTLS)</legend>
        <TextArea
          label="Client certificate (PEM)"
          name="clientCertificate"
          problem={problems.tls}
          hint={w.tls ? 'A certificate is set. Leave both blank to keep it.' : 'With its private key below.'}
        />
        <TextArea label="Private key (PEM)" name="privateKey" hint="Write-only: it is never shown again." />
        {w.tls ? (
          <label className="check">
            <input type="checkbox" name="removeTls" /> Remove the client certificate
          </label>
        ) : null}
      </fieldset>
      <Alert message={generalProblem(save.error, [...SETTINGS])} />
      <FormActions submit="Save settings" disabled={save.isPending} onCancel={onDone} />
    </form>
  );
}

/** The settings as a list, and the form that edits them. */
export function DeliverySettings({ w }: { w: Webhook }) {
  const [editing, setEditing] = useState(false);
  return (
    <section className="card" aria-labelledby="delivery-settings">
      <h2 id="delivery-settings">Delivery settings</h2>
      <dl className="props">
        <div className="prop">
          <dt>Timeout per attempt</dt>
          <dd>{w.timeoutMs ? `${w.timeoutMs.toLocaleString('en-US')} ms` : 'Default'}</dd>
        </div>
        <div className="prop">
          <dt>Ordering</dt>
          <dd>
            {w.ordering ? (
              <>
                by <code>{w.ordering.key}</code>, held at most {w.ordering.maxHoldSeconds.toLocaleString('en-US')} s
              </>
            ) : (
              'None'
            )}
          </dd>
        </div>
        <div className="prop">
          <dt>Rate limit</dt>
          <dd>{w.rateLimit ? `${w.rateLimit.perSecond} per second` : 'None'}</dd>
        </div>
        <div className="prop">
          <dt>OAuth2</dt>
          <dd className="url">
            {w.auth ? `${w.auth.clientId} at ${w.auth.tokenUrl}${w.auth.scope ? ` (${w.auth.scope})` : ''}` : 'None'}
          </dd>
        </div>
        <div className="prop">
          <dt>Client certificate</dt>
          <dd>{w.tls ? 'Set' : 'None'}</dd>
        </div>
      </dl>
      {editing ? (
        <EditSettings w={w} onDone={() => setEditing(false)} />
      ) : (
        <button type="button" onClick={() => setEditing(true)}>
          Edit delivery settings
        </button>
      )}
    </section>
  );
}
