// A light PromQL scanner: which metrics, label matchers and grouping labels an expression uses,
// checked against the metric catalog (and the real prom-client default metrics of each service),
// so alerts and dashboards cannot drift from what the services export. Syntax itself is checked
// by promtool.
import { createRegistry } from '@switchboard/observability';
import { LABEL_VALUES, METRICS, SERVICE_NAMES } from './catalog';

/** Labels Prometheus (static config or the Operator) attaches to every scraped series. */
export const TARGET_LABELS = ['job', 'instance', 'namespace', 'pod', 'service', 'container', 'endpoint'] as const;

let defaults: Set<string> | undefined;
/** prom-client's default metrics, as each service's registry names them (e.g. gateway_process_cpu_seconds_total). */
export async function defaultMetricNames(): Promise<Set<string>> {
  if (!defaults) {
    defaults = new Set();
    for (const s of SERVICE_NAMES) {
      const registry = createRegistry(s);
      for (const m of await registry.getMetricsAsJSON()) defaults.add(m.name);
      registry.clear();
    }
  }
  return defaults;
}

/** Expands a __name__ regex of the forms `a|b` and `pre(x|y)post` into names. */
export function expandNameRegex(regex: string): string[] {
  const group = /^([^()|]*)\(([^()]*)\)([^()|]*)$/.exec(regex);
  if (group) return group[2]!.split('|').map((alt) => `${group[1]}${alt}${group[3]}`);
  if (/^[A-Za-z0-9_:|]+$/.test(regex)) return regex.split('|');
  throw new Error(`cannot expand __name__ regex ${regex}`);
}

export interface Matcher {
  label: string;
  op: string;
  value: string;
}

export interface Selector {
  metrics: string[];
  matchers: Matcher[];
}

const STRING = /"((?:[^"\\]|\\.)*)"/;

/** Vector selectors: `name{...}`, `{__name__=~"..."}` and bare metric names. */
export function selectors(expr: string): Selector[] {
  const out: Selector[] = [];
  // Blank out string literals first (keeping their positions) when looking for bare names.
  const selectorRe = /([A-Za-z_:][A-Za-z0-9_:]*)?\{([^{}]*)\}/g;
  const covered: Array<[number, number]> = [];
  for (const m of expr.matchAll(selectorRe)) {
    const name = m[1];
    // `by (...)`, `without (...)` are parentheses, so a brace always opens a selector.
    const matchers: Matcher[] = [];
    for (const part of m[2]!.matchAll(
      new RegExp(`([A-Za-z_][A-Za-z0-9_]*)\\s*(=~|!~|!=|=)\\s*${STRING.source}`, 'g'),
    )) {
      matchers.push({ label: part[1]!, op: part[2]!, value: part[3]!.replace(/\\(.)/g, '$1') });
    }
    const byName = matchers.filter((x) => x.label === '__name__');
    let metrics: string[] = [];
    if (name) metrics = [name];
    else if (byName.length === 1 && byName[0]!.op === '=') metrics = [byName[0]!.value];
    else if (byName.length === 1 && byName[0]!.op === '=~') metrics = expandNameRegex(byName[0]!.value);
    out.push({ metrics, matchers: matchers.filter((x) => x.label !== '__name__') });
    covered.push([m.index!, m.index! + m[0].length]);
  }
  const masked = expr.replace(/"(?:[^"\\]|\\.)*"/g, (s) => ' '.repeat(s.length));
  const FUNCTIONS_AND_KEYWORDS = new Set([
    'sum',
    'avg',
    'min',
    'max',
    'count',
    'rate',
    'irate',
    'increase',
    'deriv',
    'delta',
    'histogram_quantile',
    'by',
    'without',
    'and',
    'or',
    'unless',
    'on',
    'ignoring',
    'group_left',
    'group_right',
    'time',
    'clamp_min',
    'clamp_max',
    'abs',
    'changes',
    'resets',
    'label_replace',
    'topk',
    'bottomk',
    'absent',
    'vector',
    'scalar',
    'offset',
    'bool',
    'avg_over_time',
    'max_over_time',
    'min_over_time',
    'sum_over_time',
    'quantile',
    'stddev',
    'count_values',
    'group',
    'predict_linear',
    'last_over_time',
  ]);
  for (const m of masked.matchAll(/(?<![A-Za-z0-9_:.\]])([A-Za-z_:][A-Za-z0-9_:]*)(?![A-Za-z0-9_:])/g)) {
    const at = m.index!;
    if (covered.some(([a, b]) => at >= a && at < b)) continue;
    const word = m[1]!;
    if (FUNCTIONS_AND_KEYWORDS.has(word)) continue;
    const after = masked.slice(at + word.length).trimStart();
    if (after.startsWith('(')) continue; // a function call
    // Inside `by (...)` / `without (...)` the words are label names.
    const before = masked.slice(0, at);
    if (/\b(by|without|on|ignoring|group_left|group_right)\s*\([^()]*$/.test(before)) continue;
    // Durations inside [...] and numbers are not names.
    if (/\[[^\]]*$/.test(before)) continue;
    out.push({ metrics: [word], matchers: [] });
  }
  return out;
}

/** Labels named in `by (...)`, `without (...)`, `on (...)`, `ignoring (...)`. */
export function groupingLabels(expr: string): string[] {
  const masked = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return [...masked.matchAll(/\b(?:by|without|on|ignoring)\s*\(([^()]*)\)/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/**
 * Errors for one expression: unknown metric names, labels a metric does not have, label values
 * outside the documented sets, grouping by labels none of the used metrics carries.
 */
export async function checkExpression(expr: string): Promise<string[]> {
  const errors: string[] = [];
  const known = await defaultMetricNames();
  const labelsInUse = new Set<string>([...TARGET_LABELS]);
  for (const sel of selectors(expr)) {
    if (sel.metrics.length === 0) errors.push(`a selector without a metric name: ${JSON.stringify(sel.matchers)}`);
    for (const metric of sel.metrics) {
      if (metric === 'up') continue;
      const base = metric.replace(/_(bucket|sum|count)$/, '');
      const entry = METRICS[metric] ?? (METRICS[base]?.type === 'histogram' ? METRICS[base] : undefined);
      if (!entry) {
        if (!known.has(metric)) errors.push(`unknown metric ${metric}`);
        continue;
      }
      const labels = new Set<string>([
        ...entry.labels,
        ...TARGET_LABELS,
        ...(metric.endsWith('_bucket') ? ['le'] : []),
      ]);
      for (const l of labels) labelsInUse.add(l);
      if (METRICS[metric]?.type === 'histogram')
        errors.push(`${metric} is a histogram: use ${metric}_bucket, _sum or _count`);
      for (const m of sel.matchers) {
        if (!labels.has(m.label)) errors.push(`${metric} has no label ${m.label}`);
        const allowed = (LABEL_VALUES as Record<string, readonly string[]>)[`${base}.${m.label}`];
        if (allowed) {
          const values = m.op.endsWith('~') ? m.value.split('|') : [m.value];
          for (const v of values)
            if (!/[.*+?[\](){}^$\\]/.test(v) && !allowed.includes(v))
              errors.push(`${metric}{${m.label}} has no value ${v} (known: ${allowed.join(', ')})`);
        }
      }
    }
  }
  for (const l of groupingLabels(expr))
    if (!labelsInUse.has(l) && l !== 'le') errors.push(`grouping by ${l}, which no metric of the expression has`);
  return errors;
}
