// Usage: the account's count of a category per UTC day (the last 30) or month (the last 12), as a
// chart and, beside it, the table of its numbers (what assistive technology reads).
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { body, client, type Usage } from '../api.ts';
import { queryKeys } from '../api/query-keys.ts';
import { Link } from '../router.ts';
import type { ChartData } from '../ui/chart-canvas.tsx';
import { Select } from '../ui/form.tsx';
import { Failed, Loading, Page } from '../ui/page.tsx';
import '../ui/insights.css';

const ChartCanvas = lazy(() => import('../ui/chart-canvas.tsx'));

export const USAGE_CATEGORIES = [
  { value: 'sessions', label: 'Sessions' },
  { value: 'sessions.voice', label: 'Voice sessions' },
  { value: 'sessions.text', label: 'Text sessions' },
  { value: 'launches', label: 'Session API launches' },
  { value: 'notifications', label: 'Notifications sent' },
  { value: 'notifications.failed', label: 'Notifications failed' },
  { value: 'alerts', label: 'Alerts' },
] as const;

const dayOf = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const monthOf = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'long', timeZone: 'UTC' });

export function UsagePage() {
  const [category, setCategory] = useState<Usage['category']>('sessions');
  const [period, setPeriod] = useState<'day' | 'month'>('day');
  const usage = useQuery({
    queryKey: queryKeys.usage(category, period),
    queryFn: () => body(client.GET('/v1/usage', { params: { query: { category, period } } })),
    refetchInterval: 30_000,
  });
  const label = USAGE_CATEGORIES.find((c) => c.value === category)?.label ?? category;
  const format = (start: string) => (period === 'day' ? dayOf : monthOf).format(new Date(`${start}T00:00:00Z`));
  const data = useMemo<ChartData | undefined>(
    () =>
      usage.data
        ? {
            x: usage.data.usage.map((p) => Date.parse(`${p.start}T00:00:00Z`) / 1000),
            stacks: [{ label, color: '#0969da', values: usage.data.usage.map((p) => p.count) }],
          }
        : undefined,
    [usage.data, label],
  );
  const span = period === 'day' ? 'the last 30 days' : 'the last 12 months';
  const title = `${label} per ${period === 'day' ? 'UTC day' : 'UTC month'} over ${span}`;

  return (
    <Page title="Usage">
      <p className="muted">
        What the account used, per UTC day or month. <Link to="/triggers">Usage triggers</Link> notify you when a
        category reaches a threshold.
      </p>
      <div className="card filters">
        <Select
          label="Category"
          name="category"
          value={category}
          onChange={(e) => setCategory(e.target.value as Usage['category'])}
        >
          {USAGE_CATEGORIES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </Select>
        <fieldset className="segmented">
          <legend className="visually-hidden">Usage per day or per month</legend>
          <button type="button" aria-pressed={period === 'day'} onClick={() => setPeriod('day')}>
            Day
          </button>
          <button type="button" aria-pressed={period === 'month'} onClick={() => setPeriod('month')}>
            Month
          </button>
        </fieldset>
      </div>
      {usage.isPending ? (
        <Loading what="usage" />
      ) : usage.isError ? (
        <Failed error={usage.error} retry={() => usage.refetch()} />
      ) : (
        <div className="charts top">
          <section className="chart card" aria-labelledby="usage-chart">
            <h2 id="usage-chart" className="chart-title">
              {label}
            </h2>
            <div role="img" aria-label={`${title}: ${usage.data.total} in all`} className="chart-box">
              <Suspense fallback={<div className="chart-canvas" />}>
                {data ? <ChartCanvas data={data} /> : <div className="chart-canvas" />}
              </Suspense>
            </div>
            <p className="small">
              {usage.data.total} in all over {span}.
            </p>
          </section>
          <section className="card" aria-labelledby="usage-table">
            <h2 id="usage-table" className="chart-title">
              Numbers
            </h2>
            <div className="table-wrap usage-table">
              <table className="stack">
                <caption className="visually-hidden">{title}, oldest first</caption>
                <thead>
                  <tr>
                    <th scope="col">{period === 'day' ? 'Day (UTC)' : 'Month (UTC)'}</th>
                    <th scope="col">{label}</th>
                  </tr>
                </thead>
                <tbody>
                  {usage.data.usage.map((p) => (
                    <tr key={p.start}>
                      <td data-label={period === 'day' ? 'Day (UTC)' : 'Month (UTC)'}>{format(p.start)}</td>
                      <td data-label={label}>{p.count}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">Total</th>
                    <td data-label="Total">{usage.data.total}</td>
                  </tr>
                </tfoot>
              </table>
            </div>
          </section>
        </div>
      )}
    </Page>
  );
}
