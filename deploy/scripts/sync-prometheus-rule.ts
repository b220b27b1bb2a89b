// Writes components/prometheus-operator/prometheusrule.yaml from prometheus/alerts.yml, so the alert
// rules have one source. Run after editing alerts.yml:  npx tsx deploy/scripts/sync-prometheus-rule.ts
// deploy/test/prometheus.test.ts fails while the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

export const ALERTS_PATH = fileURLToPath(new URL('../prometheus/alerts.yml', import.meta.url));
export const PROMETHEUS_RULE_PATH = fileURLToPath(
  new URL('../k8s/components/prometheus-operator/prometheusrule.yaml', import.meta.url),
);

/** The PrometheusRule manifest carrying exactly the groups of alerts.yml. */
export function renderPrometheusRule(alertsYaml: string): string {
  const rules = parse(alertsYaml) as { groups?: unknown[] };
  if (!rules || !Array.isArray(rules.groups)) throw new Error('alerts.yml has no `groups` list');
  const manifest = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'switchboard',
      labels: { 'app.kubernetes.io/name': 'switchboard' },
    },
    spec: { groups: rules.groups },
  };
  const header = [
    '# GENERATED from deploy/prometheus/alerts.yml by deploy/scripts/sync-prometheus-rule.ts: do not edit.',
    '# Edit alerts.yml (and alerts.test.yml), then run: npx tsx deploy/scripts/sync-prometheus-rule.ts',
  ].join('\n');
  return `${header}\n${stringify(manifest, { lineWidth: 0 })}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(PROMETHEUS_RULE_PATH, renderPrometheusRule(readFileSync(ALERTS_PATH, 'utf8')));
  console.log(`wrote ${PROMETHEUS_RULE_PATH}`);
}
