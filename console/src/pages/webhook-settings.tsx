// A webhook's delivery settings (docs/api.md#delivery-settings): the timeout of each attempt,
// ordering by a key of the event's data, a rate limit, OAuth2 client credentials and a TLS client
// certificate, on the New webhook form and in their own section of the webhook's page (shown, and
// edited with "Edit delivery settings"). The OAuth2 client secret and the private key are
// write-only: a saved one shows as set with a control to replace it, and is never put in the page.
import { type FormEvent, useId, useState } from 'react';
import { ApiError, type Webhook } from '../api.ts';
import { Alert, Field, FormActions, formValues, generalProblem, Problem, Select } from '../ui/form.tsx';
import { TextArea } from '../ui/textarea.tsx';
import { useWebhookUpdate } from './webhook-model.ts';
import '../ui/insights.css';
import { Prop } from '../ui/prop.tsx';

/** The top-level names of the settings (the fields a problem may name beside them). */
export const SETTINGS_FIELDS = ['timeoutMs', 'ordering', 'rateLimit', 'auth', 'tls'] as const;

type Settings = Pick<Webhook, (typeof SETTINGS_FIELDS)[number]>;

/**
 * The problem of each setting an ApiError names, by its dotted name (`auth.tokenUrl`). A problem
 * naming a whole setting (`rateLimit`) is shown beside its first field.
 */
export function settingProblems(error: unknown): Record<string, string> {
  const first: Record<string, string> = {
    ordering: 'ordering.key',
    rateLimit: 'rateLimit.perSecond',
    auth: 'auth.type',
    tls: 'tls.clientCertificate',
  };
  const out: Record<string, string> = {};
  if (error instanceof ApiError)
    for (const f of error.fields) {
      const dotted = f.field.replace(/^\/|^body\./, '').replace(/\//g, '.');
      const name = first[dotted] ?? dotted;
      out[name] = out[name] ? `${out[name]}; ${f.message}` : f.message;
    }
  return out;
}

/**
 * A write-only secret: typed in when there is none; once saved it shows as "set" with a Replace
 * button, which brings the field (the value is submitted only then).
 */
function Secret({
  label,
  name,
  saved,
  problem,
  hint,
  multiline,
}: {
  label: string;
  name: string;
  saved: boolean;
  problem: string | undefined;
  hint: string;
  multiline?: boolean;
}) {
  const [replacing, setReplacing] = useState(!saved);
  const id = useId();
  if (replacing) {
    // Focused when the Replace button brought it.
    const shared = { label, name, problem, hint, autoFocus: saved };
    const field = multiline ? (
      <TextArea {...shared} rows={5} spellCheck={false} autoComplete="off" className="code" />
    ) : (
      <Field {...shared} type="password" autoComplete="new-password" />
    );
    return saved ? (
      <div>
        {field}
        <button type="button" className="link small" onClick={() => setReplacing(false)}>
          Keep the current {label.toLowerCase()}
        </button>
      </div>
    ) : (
      field
    );
  }
  return (
    <div className="field">
      <span className="label" id={`${id}-label`}>
        {label}
      </span>
      <div className="secret">
        <span id={`${id}-state`}>Set (saved values cannot be read back)</span>
        <button
          type="button"
          onClick={() => setReplacing(true)}
          aria-describedby={[`${id}-state`, problem ? `${id}-problem` : ''].filter(Boolean).join(' ')}
        >
          Replace {label.toLowerCase()}
        </button>
      </div>
      <Problem id={id} problem={problem} />
    </div>
  );
}

/** The saved value of a setting by its dotted name (`ordering.key`), or '' when there is none. */
function savedValue(current: Settings | undefined, name: string): string | number {
  let value: unknown = current;
  for (const part of name.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  return (value as string | number | undefined) ?? '';
}

/** The settings fields of a webhook form; `current` is the saved webhook on an edit form. */
export function DeliverySettingsFields({
  current,
  problems,
  framed = true,
}: {
  current?: Settings | undefined;
  problems: Record<string, string>;
  /** In a "Delivery settings" fieldset (the New webhook form); the edit form has its own heading. */
  framed?: boolean;
}) {
  const [auth, setAuth] = useState(current?.auth ? 'oauth2_client_credentials' : '');
  const [tls, setTls] = useState(current?.tls !== undefined);
  const tlsId = useId();
  /** A write-only setting's field by its dotted name (`auth.clientSecret`): the name and the API's problem about it. */
  const writeOnly = (name: string) => ({ name, problem: problems[name] });
  /** A setting's field by its dotted name (`auth.tokenUrl`): the name, the saved value and the API's problem about it. */
  const setting = (name: string) => ({ ...writeOnly(name), defaultValue: savedValue(current, name) });
  /** A setting's field that takes a whole number from `min` to `max`. */
  const wholeNumber = (name: string, min: number, max: number) =>
    ({ ...setting(name), type: 'number', inputMode: 'numeric', min, max }) as const;
  const fields = (
    <>
      <Field
        label="Timeout per attempt (ms)"
        {...wholeNumber('timeoutMs', 1000, 30000)}
        step={1000}
        hint="1000 to 30000 ms for each attempt, test sends included. Empty: the platform's default."
      />
      <div className="field-row">
        <Field
          label="Ordering key"
          {...setting('ordering.key')}
          hint="A field of the event's data, e.g. sessionId: its events arrive one after the other. Empty: unordered."
        />
        <Field
          label="Longest hold (seconds)"
          {...wholeNumber('ordering.maxHoldSeconds', 1, 86400)}
          hint="1 to 86400 s an event may wait for its turn; 3600 when empty."
        />
      </div>
      <Field
        label="Rate limit (deliveries per second)"
        {...wholeNumber('rateLimit.perSecond', 1, 1000)}
        hint="1 to 1000 deliveries per second to this webhook. Empty: no limit."
      />
      <Select
        label="Authentication"
        name="auth.type"
        value={auth}
        onChange={(e) => setAuth(e.target.value)}
        problem={problems['auth.type']}
      >
        <option value="">None (the signature only)</option>
        <option value="oauth2_client_credentials">OAuth2 client credentials</option>
      </Select>
      {auth ? (
        <div className="sub-settings">
          <Field
            label="Token URL"
            {...setting('auth.tokenUrl')}
            type="url"
            inputMode="url"
            hint="Where a token is asked for (grant_type=client_credentials): https, the same rules as the target URL."
          />
          <Field label="Client ID" {...setting('auth.clientId')} autoComplete="off" hint="At most 1024 characters." />
          <Secret
            label="Client secret"
            {...writeOnly('auth.clientSecret')}
            saved={current?.auth !== undefined}
            hint="Write-only, at most 1024 characters: it is never shown again."
          />
          <Field label="Scope" {...setting('auth.scope')} hint="Optional, at most 1024 characters." />
        </div>
      ) : null}
      <div className="check">
        <input id={tlsId} type="checkbox" name="tls.enabled" checked={tls} onChange={(e) => setTls(e.target.checked)} />
        <label htmlFor={tlsId}>mTLS: present a certificate to the receiver</label>
      </div>
      {tls ? (
        <div className="sub-settings">
          <TextArea
            label="Client certificate"
            {...setting('tls.clientCertificate')}
            rows={5}
            spellCheck={false}
            className="code"
            hint="PEM, -----BEGIN CERTIFICATE-----, the chain after it; not expired."
          />
          <Secret
            label="Private key"
            {...writeOnly('tls.privateKey')}
            saved={current?.tls !== undefined}
            hint="The certificate's unencrypted PEM key. Write-only: it is never shown again."
            multiline
          />
        </div>
      ) : null}
    </>
  );
  return framed ? (
    <fieldset className="settings">
      <legend>Delivery settings</legend>
      {fields}
    </fieldset>
  ) : (
    fields
  );
}

/** A whole number typed in a field: undefined when empty, NaN when not a whole number. */
function whole(text: string | undefined): number | undefined {
  const t = (text ?? '').trim();
  if (!t) return undefined;
  return /^\d+$/.test(t) ? Number(t) : Number.NaN;
}

/** Whether two flat settings objects hold the same values, whatever the order of their keys. */
const same = (a: unknown, b: unknown) => {
  const text = (x: unknown) =>
    JSON.stringify(x ?? null, x && typeof x === 'object' ? Object.keys(x).sort() : undefined);
  return text(a) === text(b);
};

/**
 * The settings of a submitted webhook form as request fields, with the problems found before asking
 * the API. On an edit form (`current` given) only the settings that changed are sent: a setting
 * emptied is removed (`{}`), and a changed OAuth2 or TLS setting needs its secret typed again.
 */
export function settingsBody(
  v: Record<string, string>,
  current?: Settings,
): { settings: Record<string, unknown>; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const settings: Record<string, unknown> = {};
  const number = (field: string) => {
    const n = whole(v[field]);
    if (Number.isNaN(n)) problems[field] = 'must be a whole number';
    return n;
  };
  const edit = current !== undefined;
  const put = (field: keyof Settings, next: unknown) => {
    if (next === undefined) {
      if (edit && current[field] !== undefined) settings[field] = {};
    } else if (!edit || !same(next, current[field])) settings[field] = next;
  };

  const timeoutMs = number('timeoutMs');
  if (timeoutMs === undefined) {
    // Emptied: back to the platform's default.
    if (edit && current.timeoutMs !== undefined) settings.timeoutMs = null;
  } else if (!Number.isNaN(timeoutMs) && (!edit || timeoutMs !== current.timeoutMs)) settings.timeoutMs = timeoutMs;

  const key = v['ordering.key']?.trim() ?? '';
  const maxHoldSeconds = number('ordering.maxHoldSeconds');
  if (!key && maxHoldSeconds !== undefined) problems['ordering.key'] = 'name the data field to order by';
  put(
    'ordering',
    key ? { key, maxHoldSeconds: maxHoldSeconds ?? current?.ordering?.maxHoldSeconds ?? 3600 } : undefined,
  );

  const perSecond = number('rateLimit.perSecond');
  put('rateLimit', perSecond === undefined ? undefined : { perSecond });

  if (v['auth.type']) {
    const scope = v['auth.scope']?.trim();
    const auth = {
      type: v['auth.type'],
      tokenUrl: v['auth.tokenUrl']?.trim() ?? '',
      clientId: v['auth.clientId']?.trim() ?? '',
      ...(scope ? { scope } : {}),
    };
    const secret = v['auth.clientSecret'];
    const saved = current?.auth;
    const unchanged = saved && same({ ...saved, clientSecret: undefined }, { ...auth, clientSecret: undefined });
    if (secret === '') problems['auth.clientSecret'] = 'is required: the secret the token server expects';
    else if (secret !== undefined) settings.auth = { ...auth, clientSecret: secret };
    else if (!unchanged) problems['auth.clientSecret'] = 'type the client secret again to change the OAuth2 settings';
  } else put('auth', undefined);

  if (v['tls.enabled'] === 'on') {
    const clientCertificate = v['tls.clientCertificate']?.trim() ?? '';
    const privateKey = v['tls.privateKey'];
    if (privateKey !== undefined) settings.tls = { clientCertificate, privateKey };
    else if (clientCertificate !== current?.tls?.clientCertificate.trim())
      problems['tls.privateKey'] = 'give the private key of the new certificate';
  } else put('tls', undefined);

  return { settings, problems };
}

function EditSettings({ w, onDone }: { w: Webhook; onDone: () => void }) {
  const [local, setLocal] = useState<Record<string, string>>({});
  const save = useWebhookUpdate(w.id, onDone);
  const problems = { ...settingProblems(save.error), ...local };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const { settings, problems: mine } = settingsBody(formValues(e.currentTarget), w);
    setLocal(mine);
    if (Object.keys(mine).length) return;
    if (Object.keys(settings).length === 0) return onDone();
    save.mutate(settings);
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="edit-settings" noValidate>
      <h3 id="edit-settings">Edit delivery settings</h3>
      <DeliverySettingsFields current={w} problems={problems} framed={false} />
      <Alert message={generalProblem(save.error, [...SETTINGS_FIELDS])} />
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
        <Prop name="Timeout per attempt">{w.timeoutMs ? `${w.timeoutMs.toLocaleString('en-US')} ms` : 'Default'}</Prop>
        <Prop name="Ordering">
          {w.ordering ? (
            <>
              by <code>{w.ordering.key}</code>, held at most {w.ordering.maxHoldSeconds.toLocaleString('en-US')} s
            </>
          ) : (
            'None'
          )}
        </Prop>
        <Prop name="Rate limit">{w.rateLimit ? `${w.rateLimit.perSecond} per second` : 'None'}</Prop>
        <Prop name="OAuth2" className="url">
          {w.auth
            ? `${w.auth.clientId} at ${w.auth.tokenUrl}${w.auth.scope ? ` (${w.auth.scope})` : ''}; client secret set`
            : 'None'}
        </Prop>
        <Prop name="Client certificate">{w.tls ? 'Set, with its private key' : 'None'}</Prop>
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
