// Every PromQL query of the provisioned dashboards, with Grafana's variables replaced, so a test can
// run them against a real Prometheus scraping the running stack (and a static test can parse them).
//
//   import { allDashboardQueries } from '../deploy/grafana/queries.ts';
//   for (const q of allDashboardQueries()) await fetch(`${prom}/api/v1/query?query=${encodeURIComponent(q.expr)}`);
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DASHBOARDS_DIR = fileURLToPath(new URL('./dashboards/', import.meta.url));

/** Grafana's built-in variables, as a short query range would set them. */
export const BUILTIN_VARIABLES: Readonly<Record<string, string>> = {
  __rate_interval: '1m',
  __interval: '30s',
  __interval_ms: '30000',
  __range: '1h',
  __range_s: '3600',
  __range_ms: '3600000',
  __dashboard: 'switchboard',
};

export interface DashboardQuery {
  /** File name, e.g. "api.json". */
  file: string;
  dashboardUid: string;
  dashboardTitle: string;
  panelId: number;
  panelTitle: string;
  panelType: string;
  refId: string;
  /** The expression as stored in the dashboard. */
  rawExpr: string;
  /** The expression with every variable replaced: runnable PromQL. */
  expr: string;
  /** Whether Grafana runs it as an instant query (stat panels reduce a range query instead). */
  instant: boolean;
  legendFormat?: string;
}

interface JsonPanel {
  id?: number;
  type?: string;
  title?: string;
  panels?: JsonPanel[];
  targets?: Array<{
    refId?: string;
    expr?: string;
    instant?: boolean;
    range?: boolean;
    legendFormat?: string;
    hide?: boolean;
  }>;
}

interface JsonVariable {
  name: string;
  type: string;
  includeAll?: boolean;
  allValue?: string;
  multi?: boolean;
  current?: { value?: string | string[] };
  options?: Array<{ value: string | string[]; selected?: boolean }>;
  query?: unknown;
}

export interface JsonDashboard {
  uid?: string;
  title?: string;
  panels?: JsonPanel[];
  templating?: { list?: JsonVariable[] };
}

/** The value each dashboard variable takes when nothing is selected: "All" where allowed. */
export function defaultVariableValues(dashboard: JsonDashboard): Record<string, string> {
  const values: Record<string, string> = {};
  for (const v of dashboard.templating?.list ?? []) {
    if (v.type === 'datasource') continue;
    const current = Array.isArray(v.current?.value) ? v.current?.value[0] : v.current?.value;
    if (v.includeAll && (current === undefined || current === '$__all')) values[v.name] = v.allValue ?? '.*';
    else if (current !== undefined && current !== '$__all') values[v.name] = current;
    else if (v.type === 'constant' || v.type === 'textbox') values[v.name] = typeof v.query === 'string' ? v.query : '';
    else {
      const first = v.options?.[0]?.value;
      if (first !== undefined) values[v.name] = Array.isArray(first) ? first[0]! : first;
    }
  }
  return values;
}

/**
 * Replaces $name, ${name}, ${name:format} and [[name]] by their values (longest names first, so
 * $__range_s is not read as $__range). Throws when a variable is left unresolved.
 */
export function interpolate(expr: string, variables: Record<string, string>): string {
  const names = Object.keys(variables).sort((a, b) => b.length - a.length);
  let out = expr;
  for (const name of names) {
    const value = variables[name]!;
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out
      .replace(new RegExp(`\\$\\{${escaped}(?::[^}]*)?\\}`, 'g'), () => value)
      .replace(new RegExp(`\\[\\[${escaped}(?::[^\\]]*)?\\]\\]`, 'g'), () => value)
      .replace(new RegExp(`\\$${escaped}(?![A-Za-z0-9_])`, 'g'), () => value);
  }
  const left = /\$\{?[A-Za-z_][A-Za-z0-9_]*|\[\[[A-Za-z_]/.exec(out);
  if (left) throw new Error(`unresolved variable ${left[0]} in: ${expr}`);
  return out;
}

function walkPanels(panels: JsonPanel[] | undefined, visit: (p: JsonPanel) => void): void {
  for (const p of panels ?? []) {
    visit(p);
    walkPanels(p.panels, visit);
  }
}

/** The queries of one dashboard; `overrides` take precedence over its defaults and the built-ins. */
export function dashboardQueries(
  dashboard: JsonDashboard,
  file = '',
  overrides: Record<string, string> = {},
): DashboardQuery[] {
  const variables = { ...BUILTIN_VARIABLES, ...defaultVariableValues(dashboard), ...overrides };
  const out: DashboardQuery[] = [];
  walkPanels(dashboard.panels, (p) => {
    for (const t of p.targets ?? []) {
      if (t.hide || typeof t.expr !== 'string' || t.expr.trim() === '') continue;
      out.push({
        file,
        dashboardUid: dashboard.uid ?? '',
        dashboardTitle: dashboard.title ?? '',
        panelId: p.id ?? 0,
        panelTitle: p.title ?? '',
        panelType: p.type ?? '',
        refId: t.refId ?? '',
        rawExpr: t.expr,
        expr: interpolate(t.expr, variables),
        instant: t.instant === true && t.range !== true,
        ...(t.legendFormat !== undefined ? { legendFormat: t.legendFormat } : {}),
      });
    }
  });
  return out;
}

/** Every dashboard JSON file of the directory, parsed. */
export function loadDashboards(dir: string = DASHBOARDS_DIR): Array<{ file: string; dashboard: JsonDashboard }> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, dashboard: JSON.parse(readFileSync(join(dir, file), 'utf8')) as JsonDashboard }));
}

/** The queries of every provisioned dashboard. */
export function allDashboardQueries(
  overrides: Record<string, string> = {},
  dir: string = DASHBOARDS_DIR,
): DashboardQuery[] {
  return loadDashboards(dir).flatMap(({ file, dashboard }) => dashboardQueries(dashboard, file, overrides));
}

/**
 * The expression without its zero fallbacks: `(A or vector(0))` and `(A or B * 0)` become `(A)`.
 * An error-ratio stat shows 0 instead of "No data" thanks to such a fallback, which would also hide
 * a numerator whose matchers never match; a test runs this form to prove the numerator answers.
 * Returns the expression unchanged when it has none.
 */
export function withoutZeroFallback(expr: string): string {
  let out = expr;
  for (;;) {
    const at = findTopLevelOr(out);
    if (at === undefined) return out;
    out = out.slice(0, at.start) + out.slice(at.end);
  }
}

/** The next ` or <fallback>` that runs to the end of its parenthesised group and ends in `vector(0)` or `* 0`. */
function findTopLevelOr(expr: string): { start: number; end: number } | undefined {
  const re = /\s+or\s+/g;
  for (let m = re.exec(expr); m; m = re.exec(expr)) {
    // Scan to the close of the group the `or` stands in.
    let depth = 0;
    let i = m.index + m[0].length;
    for (; i < expr.length; i++) {
      const c = expr[i];
      if (c === '"') {
        // A quoted label value may hold brackets of its own.
        for (i++; i < expr.length && expr[i] !== '"'; i++) if (expr[i] === '\\') i++;
      } else if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') {
        if (depth === 0) break;
        depth--;
      }
    }
    const fallback = expr.slice(m.index + m[0].length, i).trim();
    if (/^vector\(0\)$/.test(fallback) || /\*\s*0$/.test(fallback)) return { start: m.index, end: i };
  }
  return undefined;
}
