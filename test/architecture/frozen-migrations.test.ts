// A shipped migration must mean the same thing forever: it may import Node's built-ins, the runner's
// base classes (SchemaMigration, SecretsMigration from @switchboard/db) and other migration files of
// its own service, nothing else. Live code (a service's constants, the SQL of a package) changes with
// the release, and the migration would then build a different schema than the one it built when shipped.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const RUNNER_NAMES = new Set(['SchemaMigration', 'SecretsMigration']);

/** Every migration file of every service: src/db/*migrations.ts. */
function migrationFiles(): string[] {
  const services = join(ROOT, 'services');
  return readdirSync(services).flatMap((service) => {
    const db = join(services, service, 'src', 'db');
    let names: string[];
    try {
      names = readdirSync(db);
    } catch {
      return [];
    }
    return names.filter((n) => /migrations\.ts$/.test(n) && !n.endsWith('.test.ts')).map((n) => join(db, n));
  });
}

/** What `text` imports that a frozen migration may not: one line per offending import. */
function liveImports(text: string): string[] {
  const problems: string[] = [];
  // Static imports and re-exports: `import x from '…'`, `import { a, type B } from '…'`, `import '…'`, `export … from '…'`.
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?:([\s\S]*?)\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    const [, clause = '', from = ''] = m;
    if (from.startsWith('node:') || /^\.\/[a-z-]*migrations\.ts$/.test(from)) continue;
    if (from === '@switchboard/db' && /^import/.test(m[0].trim())) {
      const named = /^(?:type\s+)?\{([^}]*)\}$/.exec(clause.trim());
      const names = named
        ? named[1]!
            .split(',')
            .map((n) => n.trim().replace(/^type\s+/, ''))
            .filter(Boolean)
        : ['*'];
      const others = names.filter((n) => !RUNNER_NAMES.has(n));
      if (others.length > 0) problems.push(`${from}: ${others.join(', ')}`);
      continue;
    }
    problems.push(from);
  }
  for (const m of text.matchAll(/\bimport\(([^)]*)\)/g)) problems.push(`import(${m[1]})`);
  for (const m of text.matchAll(/\brequire\(([^)]*)\)/g)) problems.push(`require(${m[1]})`);
  return problems;
}

describe('migrations', () => {
  it('import nothing but built-ins, the runner base classes and their own service’s migrations', () => {
    const files = migrationFiles();
    expect(files.map((f) => relative(ROOT, f))).toEqual(
      expect.arrayContaining([
        'services/applications/src/db/migrations.ts',
        'services/webhooks/src/db/migrations.ts',
        'services/webhooks/src/db/body-migrations.ts',
        'services/webhooks/src/db/secret-migrations.ts',
      ]),
    );
    const found: Record<string, string[]> = {};
    for (const f of files) {
      const problems = liveImports(readFileSync(f, 'utf8'));
      if (problems.length > 0) found[relative(ROOT, f)] = problems;
    }
    expect(found).toEqual({});
  });

  it('the check catches live code, a package helper and a dynamic import', () => {
    expect(liveImports("import { LATENCY_BOUNDS_MS } from '../deliveries/rollups.ts';")).toEqual([
      '../deliveries/rollups.ts',
    ]);
    expect(liveImports("import { outboxTableSql, SchemaMigration } from '@switchboard/db';")).toEqual([
      '@switchboard/db: outboxTableSql',
    ]);
    expect(liveImports("import { SecretBox } from '@switchboard/security';")).toEqual(['@switchboard/security']);
    expect(liveImports("const m = await import('../x.ts');")).toEqual(["import('../x.ts')"]);
    expect(
      liveImports("import { randomBytes } from 'node:crypto';\nimport { SchemaMigration } from '@switchboard/db';"),
    ).toEqual([]);
  });
});
