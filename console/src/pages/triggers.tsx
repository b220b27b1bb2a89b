// Triggers: the account's alert triggers (an alertTriggered notification when alerts reach a
// threshold within a window) and usage triggers (a usageTriggered notification when a usage
// category reaches a threshold per day, month or once): list, create, delete.
import { type UseQueryResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { type AlertTrigger, body, client, type Schemas, type UsageTrigger } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { encodedPath } from '../paths.ts';
import { Link } from '../router.ts';
import { ApplicationPicker, useApplication } from '../ui/application-picker.tsx';
import { ConfirmItem } from '../ui/dialog.tsx';
import { Alert, Field, fieldProblems, formValues, generalProblem, Select } from '../ui/form.tsx';
import { Failed, Loading, Page } from '../ui/page.tsx';
import { Table } from '../ui/table.tsx';
import { when } from '../ui/time.ts';
import { ALERT_CODES } from './alerts.tsx';
import { USAGE_CATEGORIES } from './usage.tsx';

const RECURRING: Record<UsageTrigger['recurring'], string> = {
  daily: 'Every UTC day',
  monthly: 'Every UTC month',
  none: 'Once, from now on',
};

/** The trigger whose deletion is being confirmed. */
interface Deleting {
  kind: 'alert' | 'usage';
  id: string;
  name: string;
}

/** A form's values with its numeric fields as numbers (empty ones left out: the API names them). */
function bodyOf(form: HTMLFormElement, numeric: string[]): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(formValues(form))) {
    const t = v.trim();
    if (t === '') continue;
    out[k] = numeric.includes(k) && /^-?\d+$/.test(t) ? Number(t) : t;
  }
  return out;
}

/** The calls of one kind of trigger. */
interface TriggerCalls<T> {
  list: () => Promise<T[]>;
  /** The body as the form gives it; the API says what is wrong with it. */
  create: (body: Record<string, string | number>) => Promise<T>;
  remove: (id: string) => Promise<unknown>;
}

const ALERT_TRIGGERS: TriggerCalls<AlertTrigger> = {
  list: () => body(client.GET('/v1/alert-triggers')),
  create: (b) => body(client.POST('/v1/alert-triggers', { body: b as Schemas['AlertTriggerCreate'] })),
  remove: (id) => body(client.DELETE('/v1/alert-triggers/{id}', { params: { path: { id } } })),
};

const USAGE_TRIGGERS: TriggerCalls<UsageTrigger> = {
  list: () => body(client.GET('/v1/usage-triggers')),
  create: (b) => body(client.POST('/v1/usage-triggers', { body: b as Schemas['UsageTriggerCreate'] })),
  remove: (id) => body(client.DELETE('/v1/usage-triggers/{id}', { params: { path: { id } } })),
};

/** The create form, list and delete of one kind of trigger. */
function useTriggers<T extends { id: string }>(kind: 'alert-triggers' | 'usage-triggers', calls: TriggerCalls<T>) {
  const queries = useQueryClient();
  const key = queryKeys.triggers(kind);
  const list = useQuery({ queryKey: key, queryFn: calls.list });
  const create = useMutation({
    mutationFn: calls.create,
    onSuccess: () => queries.invalidateQueries({ queryKey: key }),
  });
  const remove = useMutation({
    mutationFn: (t: T) => calls.remove(t.id),
    onSuccess: () => queries.invalidateQueries({ queryKey: key }),
  });
  return { list, create, remove };
}

function TriggerTable<T extends { id: string }>({
  list,
  caption,
  empty,
  heads,
  row,
}: {
  list: UseQueryResult<T[]>;
  caption: string;
  empty: string;
  heads: string[];
  row: (t: T) => ReactNode;
}) {
  if (list.isPending) return <Loading what={caption.toLowerCase()} />;
  if (list.isError) return <Failed error={list.error} retry={() => list.refetch()} />;
  if (list.data.length === 0) return <p className="muted">{empty}</p>;
  return (
    <Table caption={caption} heads={heads}>
      {list.data.map(row)}
    </Table>
  );
}

/** An application's name (its id until known), linking to its page. */
function AppLink({ id }: { id: string }) {
  const { app } = useApplication(id);
  return <Link to={encodedPath`/applications/${id}`}>{app?.name ?? id}</Link>;
}

export function TriggersPage() {
  const alerts = useTriggers('alert-triggers', ALERT_TRIGGERS);
  const usage = useTriggers('usage-triggers', USAGE_TRIGGERS);
  const [deleting, setDeleting] = useState<Deleting>();
  /** The Delete of a row, which asks first. */
  const deleteCell = (d: Deleting) => (
    <td data-label="Actions">
      <button
        type="button"
        className="danger"
        onClick={() => setDeleting(d)}
        aria-label={`Delete the ${d.kind} trigger ${d.name}`}
      >
        Delete
      </button>
    </td>
  );
  const [said, setSaid] = useState<string>();
  const [appId, setAppId] = useState<string>();
  const alertProblems = fieldProblems(alerts.create.error);
  const usageProblems = fieldProblems(usage.create.error);

  const submitAlert = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    alerts.create.mutate(
      { ...bodyOf(form, ['threshold']), ...(appId ? { applicationId: appId } : {}) },
      {
        onSuccess: (t) => {
          setSaid(`Created the alert trigger on ${t.code} at ${t.threshold} within ${t.window}.`);
          form.reset();
          setAppId(undefined);
        },
      },
    );
  };
  const submitUsage = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    usage.create.mutate(bodyOf(form, ['threshold']), {
      onSuccess: (t) => {
        setSaid(`Created the usage trigger on ${t.category} at ${t.threshold}.`);
        form.reset();
      },
    });
  };
  const alertName = (t: AlertTrigger) => `${t.code} at ${t.threshold} within ${t.window}`;
  const usageName = (t: UsageTrigger) => `${t.category} at ${t.threshold}`;

  return (
    <Page title="Triggers">
      <p className="muted">
        Triggers send a signed notification to your <Link to="/webhooks">webhook subscriptions</Link> of{' '}
        <code>alertTriggered</code> or <code>usageTriggered</code> when a threshold is reached.
      </p>
      <p role="status" className="status">
        {said}
      </p>

      <section aria-labelledby="alert-triggers">
        <h2 id="alert-triggers">Alert triggers</h2>
        <form className="card" onSubmit={submitAlert} aria-labelledby="new-alert-trigger" noValidate>
          <h3 id="new-alert-trigger">Create an alert trigger</h3>
          <div className="filters">
            <Select label="Alert code" name="code" problem={alertProblems.code}>
              <option value="*">Any code (*)</option>
              {ALERT_CODES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </Select>
            <ApplicationPicker label="Application" none="Every application" value={appId} onChange={setAppId} />
            <Field
              label="Threshold"
              name="threshold"
              inputMode="numeric"
              required
              problem={alertProblems.threshold}
              placeholder="100"
            />
            <Field
              label="Window"
              name="window"
              required
              problem={alertProblems.window}
              placeholder="5m"
              hint="1m to 24h"
            />
            <button type="submit" className="primary" disabled={alerts.create.isPending}>
              Create alert trigger
            </button>
          </div>
          <Alert message={generalProblem(alerts.create.error, ['code', 'threshold', 'window'])} />
        </form>
        <TriggerTable
          list={alerts.list}
          caption="Alert triggers"
          empty="No alert triggers yet."
          heads={['Code', 'Application', 'Threshold', 'Window', 'Last fired', 'Fired', 'Actions']}
          row={(t) => (
            <tr key={t.id}>
              <td data-label="Code">
                <code>{t.code}</code>
              </td>
              <td data-label="Application">
                {t.applicationId ? <AppLink id={t.applicationId} /> : 'every application'}
              </td>
              <td data-label="Threshold">{t.threshold}</td>
              <td data-label="Window">{t.window}</td>
              <td data-label="Last fired">{t.lastFiredAt ? when(t.lastFiredAt) : 'never'}</td>
              <td data-label="Fired">{t.firedCount}</td>
              {deleteCell({ kind: 'alert', id: t.id, name: alertName(t) })}
            </tr>
          )}
        />
      </section>

      <section aria-labelledby="usage-triggers">
        <h2 id="usage-triggers">Usage triggers</h2>
        <form className="card" onSubmit={submitUsage} aria-labelledby="new-usage-trigger" noValidate>
          <h3 id="new-usage-trigger">Create a usage trigger</h3>
          <div className="filters">
            <Select label="Category" name="category" problem={usageProblems.category}>
              {USAGE_CATEGORIES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </Select>
            <Field
              label="Usage threshold"
              name="threshold"
              inputMode="numeric"
              required
              problem={usageProblems.threshold}
              placeholder="1000"
            />
            <Select label="Recurring" name="recurring" problem={usageProblems.recurring}>
              <option value="daily">{RECURRING.daily}</option>
              <option value="monthly">{RECURRING.monthly}</option>
              <option value="none">{RECURRING.none}</option>
            </Select>
            <button type="submit" className="primary" disabled={usage.create.isPending}>
              Create usage trigger
            </button>
          </div>
          <Alert message={generalProblem(usage.create.error, ['category', 'threshold', 'recurring'])} />
        </form>
        <TriggerTable
          list={usage.list}
          caption="Usage triggers"
          empty="No usage triggers yet."
          heads={['Category', 'Threshold', 'Recurring', 'Last fired', 'Actions']}
          row={(t) => (
            <tr key={t.id}>
              <td data-label="Category">
                <code>{t.category}</code>
              </td>
              <td data-label="Threshold">{t.threshold}</td>
              <td data-label="Recurring">{RECURRING[t.recurring]}</td>
              <td data-label="Last fired">
                {t.lastFiredAt ? `${when(t.lastFiredAt)} (period of ${t.lastFiredPeriod})` : 'never'}
              </td>
              {deleteCell({ kind: 'usage', id: t.id, name: usageName(t) })}
            </tr>
          )}
        />
      </section>
      <Alert message={generalProblem(alerts.remove.error) ?? generalProblem(usage.remove.error)} />
      <ConfirmItem
        item={deleting}
        clear={() => setDeleting(undefined)}
        act={(d) => {
          const done = { onSuccess: () => setSaid(`Deleted the ${d.kind} trigger ${d.name}.`) };
          if (d.kind === 'alert') alerts.remove.mutate({ id: d.id } as AlertTrigger, done);
          else usage.remove.mutate({ id: d.id } as UsageTrigger, done);
        }}
        title={`Delete the ${deleting?.kind ?? ''} trigger ${deleting?.name ?? ''}?`}
        confirm="Delete trigger"
      >
        <p>It sends no more notifications.</p>
      </ConfirmItem>
    </Page>
  );
}
