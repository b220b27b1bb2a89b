// The Prometheus configuration and alert rules, checked with the real promtool: rules parse, their
// unit tests pass (a firing and a quiet case for every alert), the local scrape config is valid,
// the Kubernetes PrometheusRule carries exactly these rules, and every expression uses only
// metrics, labels and label values the services export.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeEach, describe, expect, it } from 'vitest';
import { prometheusConfigFor } from '../prometheus/config';
import { PROMETHEUS_RULE_PATH, renderPrometheusRule } from '../scripts/sync-prometheus-rule';
import { SERVICES, SERVICE_NAMES } from './lib/catalog';
import { checkExpression } from './lib/promql';
import { DEPLOY_DIR, requireTool, run } from './lib/tools';

const DIR = join(DEPLOY_DIR, 'prometheus');
const ALERTS = join(DIR, 'alerts.yml');
const ALERT_TESTS = join(DIR, 'alerts.test.yml');
const CONFIG = join(DIR, 'prometheus.yml');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const alertsText = readFileSync(ALERTS, 'utf8');
const groups = (parse(alertsText) as { groups: Array<{ name: string; rules: Rule[] }> }).groups;
const alerts = groups.flatMap((g) => g.rules).filter((r): r is Rule & { alert: string } => typeof r.alert === 'string');

// A missing promtool fails every test with its message (not a skip).
let promtool: string;
beforeEach(() => {
  promtool = requireTool('promtool');
});

describe('promtool', () => {
  it('checks the alert rules (promtool check rules)', () => {
    const res = run(promtool, ['check', 'rules', ALERTS]);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toContain(`SUCCESS: ${alerts.length} rules found`);
  });

  it('passes the alert unit tests (promtool test rules)', () => {
    const res = run(promtool, ['test', 'rules', ALERT_TESTS], { cwd: DIR });
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toContain('SUCCESS');
  });

  it('checks the local scrape configuration (promtool check config)', () => {
    const res = run(promtool, ['check', 'config', CONFIG]);
    expect(res.status, res.stdout + res.stderr).toBe(0);
  });

  it('the unit tests fail when an alert threshold changes (the tests test something)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-alerts-mutant-'));
    try {
      copyFileSync(ALERT_TESTS, join(dir, 'alerts.test.yml'));
      for (const [from, to] of [
        ['> 0.05', '> 0.5'],
        ['== 0', '== 2'],
        ['> 1000', '> 100000'],
      ] as const) {
        expect(alertsText).toContain(from);
        writeFileSync(join(dir, 'alerts.yml'), alertsText.replace(from, to));
        const res = run(promtool, ['test', 'rules', 'alerts.test.yml'], { cwd: dir });
        expect(res.status, `mutating "${from}" into "${to}" should fail a test`).not.toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('alert rules', () => {
  it('cover the required concerns', () => {
    const find = (pattern: RegExp) => alerts.find((a) => pattern.test(a.expr.replace(/\s+/g, ' ')));
    expect(
      find(/gateway_http_requests_total\{status=~"5\.\."\}.*\/.*gateway_http_requests_total/),
      '5xx ratio',
    ).toBeDefined();
    expect(
      find(/histogram_quantile\(0\.99, sum by \([^)]*le[^)]*\) \(rate\(gateway_http_request_duration_seconds_bucket/),
      'p99 latency',
    ).toBeDefined();
    expect(
      find(/dispatcher_deliveries_total\{outcome=~"retrying\|failed"\}.*\/.*dispatcher_deliveries_total/),
      'delivery failure ratio',
    ).toBeDefined();
    expect(find(/dispatcher_breakers\{state="open"\}/), 'open breakers').toBeDefined();
    expect(find(/deriv\(dispatcher_consumer_pending/), 'consumer lag growing').toBeDefined();
    expect(find(/^up\{job=~"gateway\|applications\|webhooks\|dispatcher"\} == 0$/), 'service down').toBeDefined();
  });

  it.each(alerts.map((a) => [a.alert, a] as const))(
    '%s has a severity, a summary, a description and a one-line runbook',
    (_name, a) => {
      expect(['critical', 'warning']).toContain(a.labels?.severity);
      for (const k of ['summary', 'description', 'runbook'] as const)
        expect(a.annotations?.[k]?.trim(), k).toBeTruthy();
      expect(a.annotations!.runbook).not.toContain('\n');
      expect(Object.keys(a.annotations!).sort()).toEqual(['description', 'runbook', 'summary']);
    },
  );

  it('have unique names, each documented in deploy/README.md', () => {
    const names = alerts.map((a) => a.alert);
    expect(new Set(names).size).toBe(names.length);
    const readme = readFileSync(join(DEPLOY_DIR, 'README.md'), 'utf8');
    for (const n of names) expect(readme, `README runbook for ${n}`).toContain(`### ${n}`);
  });

  it('have a firing case and a quiet case each in alerts.test.yml, and test no unknown alert', () => {
    const tests = (
      parse(readFileSync(ALERT_TESTS, 'utf8')) as {
        tests: Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }> }>;
      }
    ).tests;
    const cases = tests.flatMap((t) => t.alert_rule_test ?? []);
    for (const name of alerts.map((a) => a.alert)) {
      expect(
        cases.some((c) => c.alertname === name && (c.exp_alerts ?? []).length > 0),
        `${name} fires somewhere`,
      ).toBe(true);
      expect(
        cases.some((c) => c.alertname === name && (c.exp_alerts ?? []).length === 0),
        `${name} stays quiet somewhere`,
      ).toBe(true);
    }
    for (const c of cases) expect(alerts.map((a) => a.alert)).toContain(c.alertname);
  });

  it('use only metrics, labels and label values the services export', async () => {
    const problems: string[] = [];
    for (const a of alerts) for (const e of await checkExpression(a.expr)) problems.push(`${a.alert}: ${e}`);
    expect(problems).toEqual([]);
  });

  it('are what the Kubernetes PrometheusRule ships (generated, in sync)', () => {
    expect(
      readFileSync(PROMETHEUS_RULE_PATH, 'utf8'),
      'out of sync: run npx tsx deploy/scripts/sync-prometheus-rule.ts',
    ).toBe(renderPrometheusRule(alertsText));
  });
});

describe('local scrape configuration', () => {
  const config = parse(readFileSync(CONFIG, 'utf8')) as {
    rule_files: string[];
    scrape_configs: Array<{ job_name: string; metrics_path?: string; static_configs: Array<{ targets: string[] }> }>;
  };

  it('scrapes each service on its operations port under its own job name', () => {
    expect(config.scrape_configs.map((s) => s.job_name).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const s of config.scrape_configs) {
      expect(s.static_configs.flatMap((c) => c.targets)).toEqual([
        `127.0.0.1:${SERVICES[s.job_name as keyof typeof SERVICES].opsPort}`,
      ]);
      expect(s.metrics_path ?? '/metrics').toBe('/metrics');
    }
    expect(config.rule_files).toEqual(['alerts.yml']);
  });

  it('can be pointed at a stack on other ports (prometheusConfigFor) and stays valid', () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-prom-config-'));
    try {
      const file = join(dir, 'prometheus.yml');
      writeFileSync(
        file,
        prometheusConfigFor({ gateway: '127.0.0.1:41001', dispatcher: '127.0.0.1:41004' }, { scrapeInterval: '1s' }),
      );
      const res = run(promtool, ['check', 'config', file]);
      expect(res.status, res.stdout + res.stderr).toBe(0);
      const written = parse(readFileSync(file, 'utf8')) as typeof config & { global: Record<string, string> };
      expect(written.scrape_configs.map((s) => [s.job_name, s.static_configs[0]!.targets[0]])).toEqual([
        ['gateway', '127.0.0.1:41001'],
        ['dispatcher', '127.0.0.1:41004'],
      ]);
      expect(written.global.scrape_interval).toBe('1s');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
