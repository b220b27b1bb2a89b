// The metric catalog the alerts and dashboards are checked against (lib/catalog.ts) must match what
// the services' code defines: each metric's name, type and label names, found in the source where
// the prom-client metric is declared (the service's own src/, or packages/platform for the names
// it builds from the service name).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METRICS } from './lib/catalog';
import { REPO_ROOT } from './lib/tools';

function sources(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [{ path, text: readFileSync(path, 'utf8') }] : [];
  });
}

const TYPES = { counter: 'Counter', gauge: 'Gauge', histogram: 'Histogram' } as const;

/** `new Counter({ name: '<name>', ..., labelNames: [...] })`, with a literal or a templated name. */
function declaration(files: Array<{ path: string; text: string }>, namePattern: string): { type: string; labels: string[]; path: string } | undefined {
  const re = new RegExp(`new (Counter|Gauge|Histogram)(?:<[^>]*>)?\\(\\{\\s*name:\\s*${namePattern},([\\s\\S]*?)\\}\\)`, 'm');
  for (const f of files) {
    const m = re.exec(f.text);
    if (!m) continue;
    const labels = /labelNames:\s*\[([^\]]*)\]/.exec(m[2]!);
    return {
      type: m[1]!,
      labels: labels ? [...labels[1]!.matchAll(/'([^']+)'/g)].map((x) => x[1]!) : [],
      path: f.path,
    };
  }
  return undefined;
}

const platform = sources(join(REPO_ROOT, 'packages/platform/src'));

describe.each(Object.entries(METRICS))('%s', (name, spec) => {
  it(`is declared by ${spec.service} as a ${spec.type} with labels [${spec.labels.join(', ')}]`, () => {
    const own = sources(join(REPO_ROOT, 'services', spec.service, 'src'));
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const suffix = name.slice(spec.service.length + 1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const found = declaration(own, `['"\`]${escaped}['"\`]`) ?? declaration(platform, `\`\\$\\{[^}]+\\}_${suffix}\``);
    expect(found, `no prom-client declaration of ${name} in services/${spec.service}/src or packages/platform/src`).toBeDefined();
    expect(found!.type, found!.path).toBe(TYPES[spec.type]);
    expect(found!.labels, found!.path).toEqual([...spec.labels]);
  });
});
