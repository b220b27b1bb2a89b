// prometheus.yml with other targets: for a test that runs a real Prometheus against a stack started
// on free ports. Keeps the job names (the alerts and dashboards rely on them) and the rule file.
//
//   writeFileSync(join(dir, 'prometheus.yml'), prometheusConfigFor({ gateway: `127.0.0.1:${port}`, ... }));
//   spawn('prometheus', [`--config.file=${dir}/prometheus.yml`, `--storage.tsdb.path=${dir}/data`,
//                        `--web.listen-address=127.0.0.1:${promPort}`]);
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

export const PROMETHEUS_YML = fileURLToPath(new URL('./prometheus.yml', import.meta.url));
export const ALERTS_YML = fileURLToPath(new URL('./alerts.yml', import.meta.url));

export type ScrapeTargets = Partial<Record<'gateway' | 'applications' | 'webhooks' | 'dispatcher', string>>;

interface ScrapeConfig {
  job_name: string;
  static_configs?: Array<{ targets: string[] }>;
  [key: string]: unknown;
}

/**
 * The local configuration with each job's target replaced by `targets[job]` (jobs without a target
 * are dropped), the rule file referenced by absolute path, and optional global overrides.
 */
export function prometheusConfigFor(
  targets: ScrapeTargets,
  opts: { scrapeInterval?: string; evaluationInterval?: string } = {},
): string {
  const config = parse(readFileSync(PROMETHEUS_YML, 'utf8')) as {
    global?: Record<string, string>;
    rule_files?: string[];
    scrape_configs: ScrapeConfig[];
  };
  config.global = {
    ...config.global,
    ...(opts.scrapeInterval ? { scrape_interval: opts.scrapeInterval, scrape_timeout: opts.scrapeInterval } : {}),
    ...(opts.evaluationInterval ? { evaluation_interval: opts.evaluationInterval } : {}),
  };
  config.rule_files = [ALERTS_YML];
  config.scrape_configs = config.scrape_configs
    .filter((s) => targets[s.job_name as keyof ScrapeTargets] !== undefined)
    .map((s) => ({ ...s, static_configs: [{ targets: [targets[s.job_name as keyof ScrapeTargets]!] }] }));
  return stringify(config);
}
