// Small numeric helpers of the proof: percentiles, counts by status and least-squares slope; Prometheus text parsing
// and the results table are the ones the tests and the benchmarks use.
export { metricSum } from '../../test/support/infra';
export { table } from '../../bench/lib';

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** How many of `results` answered each status (0: transport error). */
export function countByStatus(results: Array<{ status: number }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}

/** Least-squares slope of y over x. */
export function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
