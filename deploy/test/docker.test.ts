// The service images, checked by inspection (no Docker engine here): the one Dockerfile, built with
// --build-arg SERVICE=<name>, installs only that workspace's production dependencies from the
// lockfile, compiles the service in a build stage, copies the compiled JavaScript and what it loads at
// run time, runs it with plain node as a non-root uid on a current Node LTS, and exposes the ports the
// manifests use; .dockerignore keeps dependencies, build output, data and secrets out of the context.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_NAMES, SERVICES } from './lib/catalog';
import { REPO_ROOT } from './lib/tools';

interface Instruction {
  keyword: string;
  args: string;
  stage: number;
}

/**
 * Instructions of a Dockerfile, continuation lines joined, comments dropped, with the build
 * arguments given (as `docker build --build-arg`) substituted where `${NAME}` appears.
 */
function parseDockerfile(text: string, buildArgs: Record<string, string> = {}): Instruction[] {
  const out: Instruction[] = [];
  let stage = -1;
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (line.startsWith('#')) continue;
    pending += (pending ? ' ' : '') + line.replace(/\\$/, '').trim();
    if (line.endsWith('\\')) continue;
    const m = /^([A-Za-z]+)\s+(.*)$/.exec(pending);
    pending = '';
    if (!m) continue;
    const keyword = m[1]!.toUpperCase();
    if (keyword === 'FROM') stage += 1;
    const args = m[2]!.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => buildArgs[name] ?? whole);
    out.push({ keyword, args, stage });
  }
  return out;
}

/** Docker's .dockerignore matching, enough for these patterns: `**`, `*`, and parents of a match. */
function ignored(patterns: string[], path: string): boolean {
  let result = false;
  for (const p of patterns) {
    const negate = p.startsWith('!');
    const pattern = (negate ? p.slice(1) : p).replace(/^\/+|\/+$/g, '');
    const re = new RegExp(
      `^${pattern
        .split('**')
        .map((part) =>
          part
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]'),
        )
        .join('.*')
        // "**/" also matches no directory at all.
        .replace(/\.\*\//g, '(?:.*/)?')}(/.*)?$`,
    );
    if (re.test(path)) result = !negate;
  }
  return result;
}

const dockerignore = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

describe('.dockerignore', () => {
  it.each([
    'node_modules',
    'services/gateway/node_modules',
    '.data',
    '.git',
    'bench/results',
    'coverage',
    'dist',
    'packages/db/dist',
    '.env',
    'services/dispatcher/.scratch',
  ])('keeps %s out of the build context', (path) => expect(ignored(dockerignore, path)).toBe(true));

  it.each([
    'package.json',
    'package-lock.json',
    'proto/switchboard/applications/v1/applications.proto',
    'packages/db/src/index.ts',
    'services/gateway/src/main.ts',
    'services/applications/src/migrate.ts',
  ])('keeps %s in the build context', (path) => expect(ignored(dockerignore, path)).toBe(false));
});

/** `FROM <base> [AS <name>]`. */
const fromOf = (i: Instruction) => {
  const [base, as, name] = i.args.split(/\s+/).filter((p) => !p.startsWith('--'));
  return { base: base!, name: as?.toUpperCase() === 'AS' ? name : undefined };
};

/**
 * The instructions that make up the image: those of the last stage and of every stage of the
 * file it is built FROM, in order (a stage inherits WORKDIR, USER, ENV, EXPOSE, CMD of its base).
 */
function imageInstructions(ins: Instruction[]): Instruction[] {
  const froms = ins.filter((i) => i.keyword === 'FROM');
  const chain: number[] = [];
  for (let stage: number | undefined = froms.length - 1; stage !== undefined && stage >= 0; ) {
    chain.unshift(stage);
    const base = fromOf(froms[stage]!).base;
    const parent = froms.findIndex((f, k) => k < stage! && fromOf(f).name === base);
    stage = parent >= 0 ? parent : undefined;
  }
  return ins.filter((i) => chain.includes(i.stage));
}

it('the services have no Dockerfile of their own: the root Dockerfile builds each of them', () => {
  for (const service of SERVICE_NAMES)
    expect(existsSync(join(REPO_ROOT, 'services', service, 'Dockerfile')), `services/${service}/Dockerfile`).toBe(
      false,
    );
  expect(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')).toMatch(/^ARG SERVICE$/m);
});

describe.each(SERVICE_NAMES)('Dockerfile --build-arg SERVICE=%s', (service) => {
  const file = join(REPO_ROOT, 'Dockerfile');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const ins = parseDockerfile(text, { SERVICE: service });
  const stages = ins.filter((i) => i.keyword === 'FROM');
  const final = imageInstructions(ins);
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'services', service, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
  };
  /** The production dependencies of the service and of the workspace packages it uses. */
  const runtimeDependencies = (): Array<[string, string]> => {
    const seen = new Set<string>();
    const out: Array<[string, string]> = [];
    const visit = (dir: string) => {
      if (seen.has(dir)) return;
      seen.add(dir);
      const p = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
      };
      for (const dep of Object.keys(p.dependencies ?? {})) {
        out.push([p.name, dep]);
        if (dep.startsWith('@switchboard/')) visit(`packages/${dep.slice('@switchboard/'.length)}`);
      }
    };
    visit(`services/${service}`);
    return out;
  };
  const spec = SERVICES[service];

  it('exists and is multi-stage, on a current Node LTS image', () => {
    expect(text, `${file} is missing`).not.toBe('');
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const arg = ins.find((i) => i.keyword === 'ARG' && i.args.startsWith('NODE_IMAGE='));
    const image = arg ? arg.args.slice('NODE_IMAGE='.length) : stages[0]!.args.split(/\s+/)[0]!;
    expect(image).toMatch(/^node:(22|24)(\.\d+){0,2}-(alpine|slim|bookworm-slim|trixie-slim)(@sha256:[0-9a-f]{64})?$/);
    // Every stage starts from the Node image or from an earlier stage of the file.
    stages.forEach((s, k) => {
      const base = fromOf(s).base;
      const earlier = stages.slice(0, k).map((e) => fromOf(e).name);
      expect(/^(\$\{NODE_IMAGE\}|node:)/.test(base) || earlier.includes(base), `FROM ${base}`).toBe(true);
    });
    // The image is the service's own stage.
    expect(fromOf(stages[stages.length - 1]!).base).toBe(service);
  });

  it('installs only the production dependencies of its own workspace, from the lockfile', () => {
    const install = ins.filter((i) => i.keyword === 'RUN' && /\bnpm\b/.test(i.args));
    expect(
      install.some((i) => /\bnpm install\b|\bnpm i\b/.test(i.args)),
      'npm install is not reproducible: use npm ci',
    ).toBe(false);
    // The image's node_modules come from the stage the runtime copies /app from.
    const copied = final.find((i) => i.keyword === 'COPY' && /--from=\S+ \/app /.test(i.args));
    const from = /--from=(\S+)/.exec(copied?.args ?? '')?.[1];
    const stage = stages.findIndex((s) => fromOf(s).name === from);
    expect(stage, 'the stage the runtime copies /app from').toBeGreaterThanOrEqual(0);
    const ci = install.find((i) => i.stage === stage && /\bnpm ci\b/.test(i.args));
    expect(ci, 'npm ci').toBeDefined();
    expect(ci!.args).toContain('--omit=dev');
    expect(ci!.args).toContain(`--workspace ${pkg.name}`);
    expect(ci!.args).toContain('--include-workspace-root=false');
    // The image runs compiled JavaScript: neither tsx, TypeScript nor type declarations are needed
    // at run time, so none is a production dependency of the service or of a package it uses.
    for (const [owner, dep] of runtimeDependencies())
      expect(/^(tsx|typescript|@types\/.*)$/.test(dep), `${owner} lists ${dep} in dependencies`).toBe(false);
    // The lockfile and every manifest reach the install step.
    expect(text).toMatch(/COPY package\.json package-lock\.json/);
    expect(text).toMatch(/packages\/\*\/package\.json/);
    expect(text).toMatch(/services\/\*\/package\.json/);
  });

  it('copies what the service loads at run time, and every COPY source exists', () => {
    const copies = ins.filter((i) => i.keyword === 'COPY' && !i.args.includes('--from='));
    const sources = copies.flatMap((c) => {
      const parts = c.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      return parts.slice(0, -1);
    });
    for (const s of sources) expect(existsSync(join(REPO_ROOT, s)), `COPY source ${s}`).toBe(true);
    for (const needed of ['proto', 'packages', `services/${service}`]) expect(sources, needed).toContain(needed);
  });

  it('compiles the service and the packages it references in a build stage', () => {
    const build = ins.find((i) => i.keyword === 'RUN' && /\btsc -b\b/.test(i.args));
    expect(build?.args).toContain(`tsc -b services/${service}/tsconfig.build.json`);
    // Built from the service's build configuration, which emits src/ to dist/ (tsconfig.emit.json).
    const config = JSON.parse(readFileSync(join(REPO_ROOT, 'services', service, 'tsconfig.build.json'), 'utf8')) as {
      extends: string;
    };
    expect(config.extends).toBe('../../tsconfig.emit.json');
    // The stage that compiles is not part of the image: TypeScript and the sources stay behind.
    expect(final.some((i) => i === build)).toBe(false);
  });

  it('runs the compiled service with plain node from its service folder, as a non-root uid', () => {
    const workdir = final.filter((i) => i.keyword === 'WORKDIR').pop();
    expect(workdir?.args).toBe(`/app/services/${service}`);
    const user = final.filter((i) => i.keyword === 'USER').pop();
    expect(user?.args, 'USER').toMatch(/^[1-9]\d*(:[1-9]\d*)?$/);
    const cmd = final.filter((i) => i.keyword === 'CMD' || i.keyword === 'ENTRYPOINT').pop();
    expect(cmd, 'CMD').toBeDefined();
    const argv = JSON.parse(cmd!.args) as string[];
    expect(argv).toEqual(['node', 'dist/main.js']);
    expect(existsSync(join(REPO_ROOT, 'services', service, 'src/main.ts')), 'src/main.ts').toBe(true);
    if (service === 'applications' || service === 'webhooks')
      expect(existsSync(join(REPO_ROOT, 'services', service, 'src/migrate.ts')), 'src/migrate.ts').toBe(true);
    expect(final.some((i) => i.keyword === 'ENV' && /NODE_ENV=production/.test(i.args))).toBe(true);
  });

  it('exposes the ports the manifests use and health-checks the operations port', () => {
    const exposed = final.filter((i) => i.keyword === 'EXPOSE').flatMap((i) => i.args.split(/\s+/).map(Number));
    expect(exposed.sort()).toEqual(Object.values(spec.ports).sort());
    const health = final.find((i) => i.keyword === 'HEALTHCHECK');
    expect(health?.args).toContain('/healthz');
    const portVariable = Object.entries(spec.portEnv).find(([, name]) => spec.ports[name] === spec.opsPort)![0];
    expect(health?.args).toContain(`process.env.${portVariable} || ${spec.opsPort}`);
  });

  it('matches the image name the Kubernetes base uses', () => {
    const deployment = readFileSync(join(REPO_ROOT, 'deploy/k8s/base', service, 'deployment.yaml'), 'utf8');
    expect(deployment).toContain(`image: switchboard/${service}`);
    expect(text).toContain(`--build-arg SERVICE=${service} -t switchboard/${service}:`);
  });
});

it("the gateway's image holds the API reference bundle where /docs reads it, from the package the lockfile pins", async () => {
  const { DEFAULT_REFERENCE_BUNDLE } = await import('../../services/gateway/src/http/api-reference');
  const inRepo = relative(REPO_ROOT, DEFAULT_REFERENCE_BUNDLE);
  expect(inRepo).toBe('node_modules/@scalar/api-reference/dist/browser/standalone.js');
  const build = parseDockerfile(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'), { SERVICE: 'gateway' }).find(
    (i) => i.keyword === 'RUN' && i.args.includes('vite build'),
  );
  // Copied into /out, which becomes /app: /app/node_modules/... as the gateway's /app/services/gateway/dist/http sees it.
  expect(build?.args).toContain(`cp ${inRepo} /out/${dirname(inRepo)}/`);
  expect(existsSync(DEFAULT_REFERENCE_BUNDLE), 'npm ci installs @scalar/api-reference').toBe(true);
});
