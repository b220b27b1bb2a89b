// A statistics chart of a subscription or an application: deliveries per bucket (succeeded,
// retrying, failed, with p95 latency) or sessions by outcome, over 1 h, 24 h or 7 d. The chart's
// accessible name starts with "Deliveries" or "Sessions" and says the totals; the numbers behind
// it are a table. The drawing library is loaded with the first chart, not with the console.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { body, type DeliveryStats } from '../api.ts';
import { getStats, type Owner } from '../api/owner.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { ChartData } from './chart-canvas.tsx';
import { Failed } from './page.tsx';
import './insights.css';

const ChartCanvas = lazy(() => import('./chart-canvas.tsx'));

type StatsCounts = DeliveryStats['totals'];

const WINDOWS = [
  { window: '1h', bucket: '1m', label: '1 h', long: 'the last hour' },
  { window: '24h', bucket: '5m', label: '24 h', long: 'the last 24 hours' },
  { window: '7d', bucket: '1h', label: '7 d', long: 'the last 7 days' },
] as const;

const COLORS = { succeeded: '#2da44e', retrying: '#d4a72c', failed: '#cf222e', p95: '#0969da', fallback: '#8250df' };

type Kind = 'deliveries' | 'sessions';

function summary(kind: Kind, t: StatsCounts): string {
  if (kind === 'sessions') {
    const s = t.sessions ?? { answered: 0, fallback: 0, failed: 0 };
    return `${s.answered} answered, ${s.fallback} answered by the fallback, ${s.failed} failed`;
  }
  return `${t.attempts} attempts: ${t.succeeded} succeeded, ${t.retrying} retrying, ${t.failed} failed${
    t.p95Ms !== null ? `; p95 latency ${t.p95Ms} ms` : ''
  }`;
}

function chartData(kind: Kind, s: DeliveryStats): ChartData {
  const x = s.buckets.map((b) => Date.parse(b.start) / 1000);
  if (kind === 'sessions')
    return {
      x,
      stacks: [
        { label: 'Answered', color: COLORS.succeeded, values: s.buckets.map((b) => b.sessions?.answered ?? 0) },
        { label: 'Fallback', color: COLORS.fallback, values: s.buckets.map((b) => b.sessions?.fallback ?? 0) },
        { label: 'Failed', color: COLORS.failed, values: s.buckets.map((b) => b.sessions?.failed ?? 0) },
      ],
    };
  return {
    x,
    stacks: [
      { label: 'Succeeded', color: COLORS.succeeded, values: s.buckets.map((b) => b.succeeded) },
      { label: 'Retrying', color: COLORS.retrying, values: s.buckets.map((b) => b.retrying) },
      { label: 'Failed', color: COLORS.failed, values: s.buckets.map((b) => b.failed) },
    ],
    line: { label: 'p95 latency', color: COLORS.p95, values: s.buckets.map((b) => b.p95Ms) },
  };
}

const timeOf = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** `owner`: the webhook or the application whose statistics these are; `subject`: what it counts, for the names. */
export function StatsChart({ owner, subject, kind }: { owner: Owner; subject: string; kind: Kind }) {
  const [w, setW] = useState<(typeof WINDOWS)[number]>(WINDOWS[1]);
  const id = useId();
  const stats = useQuery({
    queryKey: queryKeys.statsOf(owner, w.window),
    queryFn: () => body(getStats(owner, { window: w.window, bucket: w.bucket })),
    refetchInterval: 5000,
  });
  const data = useMemo(() => (stats.data ? chartData(kind, stats.data) : undefined), [kind, stats.data]);
  const title = `${kind === 'sessions' ? 'Sessions' : 'Deliveries'} of ${subject}`;
  const name = stats.data ? `${title} over ${w.long}: ${summary(kind, stats.data.totals)}` : `${title} over ${w.long}`;
  const rows =
    stats.data?.buckets.filter((b) =>
      kind === 'sessions'
        ? b.sessions && b.sessions.answered + b.sessions.fallback + b.sessions.failed > 0
        : b.attempts > 0,
    ) ?? [];
  const legend = data ? [...data.stacks, ...(data.line ? [data.line] : [])] : [];

  return (
    <section className="chart card" aria-labelledby={`${id}-h`}>
      <div className="chart-head">
        <h3 id={`${id}-h`}>{kind === 'sessions' ? 'Sessions' : 'Deliveries'}</h3>
        <fieldset className="segmented">
          <legend className="visually-hidden">Window of the chart {title}</legend>
          {WINDOWS.map((x) => (
            <button key={x.window} type="button" aria-pressed={x === w} onClick={() => setW(x)}>
              {x.label}
            </button>
          ))}
        </fieldset>
      </div>
      {stats.isError ? <Failed error={stats.error} retry={() => stats.refetch()} /> : null}
      <div role="img" aria-label={name} className="chart-box">
        {data ? (
          <Suspense fallback={<div className="chart-canvas" />}>
            <ChartCanvas data={data} />
          </Suspense>
        ) : (
          <div className="chart-canvas" />
        )}
      </div>
      <p className="legend small" aria-hidden="true">
        {legend.map((l) => (
          <span key={l.label}>
            <span className="swatch" style={{ background: l.color }} /> {l.label}
          </span>
        ))}
      </p>
      <p className="small">{stats.data ? summary(kind, stats.data.totals) : 'Loading…'}</p>
      <details>
        <summary>Table of the numbers: {title}</summary>
        <div className="table-wrap">
          <table className="stack">
            <caption>
              {name}. Buckets of {stats.data?.bucket ?? w.bucket}; buckets with nothing in them are left out.
            </caption>
            <thead>
              <tr>
                <th scope="col">Bucket start</th>
                {kind === 'sessions' ? (
                  <>
                    <th scope="col">Answered</th>
                    <th scope="col">Fallback</th>
                    <th scope="col">Failed</th>
                  </>
                ) : (
                  <>
                    <th scope="col">Attempts</th>
                    <th scope="col">Succeeded</th>
                    <th scope="col">Retrying</th>
                    <th scope="col">Failed</th>
                    <th scope="col">p50 (ms)</th>
                    <th scope="col">p95 (ms)</th>
                  </>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((b) => (
                <tr key={b.start}>
                  <td data-label="Bucket start">{timeOf.format(new Date(b.start))}</td>
                  {kind === 'sessions' ? (
                    <>
                      <td data-label="Answered">{b.sessions?.answered ?? 0}</td>
                      <td data-label="Fallback">{b.sessions?.fallback ?? 0}</td>
                      <td data-label="Failed">{b.sessions?.failed ?? 0}</td>
                    </>
                  ) : (
                    <>
                      <td data-label="Attempts">{b.attempts}</td>
                      <td data-label="Succeeded">{b.succeeded}</td>
                      <td data-label="Retrying">{b.retrying}</td>
                      <td data-label="Failed">{b.failed}</td>
                      <td data-label="p50 (ms)">{b.p50Ms ?? '—'}</td>
                      <td data-label="p95 (ms)">{b.p95Ms ?? '—'}</td>
                    </>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
