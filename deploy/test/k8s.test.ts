// Offline validation of the Kubernetes manifests: every overlay is rendered with
// kustomize (`kustomize build`, as `kubectl kustomize` renders them), then checked for schema errors (kubernetes-models; CRDs structurally),
// unknown fields (kubernetes-types + tsc strict), broken references, the services' conventions
// (env names, ports, probes), pod security, network flows, and per-environment requirements.
// The checker itself is tested against deliberately broken manifests.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Container } from 'kubernetes-types/core/v1';
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2';
import { SERVICE_NAMES, SERVICES, serviceOfImage } from './lib/catalog';
import { configVariables } from '../../scripts/config-docs';
import {
  byKind,
  checkImagesPinned,
  checkPodSecurity,
  checkReferences,
  checkServiceConventions,
  effectiveEnv,
  find,
  podTemplates,
  renderKustomization,
  typecheckManifestSets,
  validateSchemas,
  type K8sObject,
} from './lib/k8s';
import { address, flowAllowed, foreignPod, podOf, type Endpoint } from './lib/network';
import { DEPLOY_DIR, REPO_ROOT, requireTool, run, setupOrFailEach } from './lib/tools';

const OVERLAYS = { dev: 'switchboard-dev', prod: 'switchboard' } as const;
type Overlay = keyof typeof OVERLAYS;

let rendered: Record<Overlay | 'base', K8sObject[]>;
let typeErrors: Record<string, string[]>;

/** Deliberately broken copies of real objects: the checker must reject each of them. */
function brokenManifests(dev: K8sObject[], prod: K8sObject[]) {
  const gateway = structuredClone(find(dev, 'Deployment', 'gateway')!);
  const gwContainer = (gateway.spec as { template: { spec: { containers: Array<Record<string, unknown>> } } }).template
    .spec.containers[0]!;
  (gwContainer.ports as Array<Record<string, unknown>>)[0]!.portz = 8080;

  const monitor = structuredClone(find(prod, 'ServiceMonitor', 'gateway')!);
  const endpoint = (monitor.spec as { endpoints: Array<Record<string, unknown>> }).endpoints[0]!;
  endpoint.intervall = endpoint.interval;
  delete endpoint.interval;
  return { typoDeployment: gateway, typoMonitor: monitor };
}

// A missing tool fails every test with its message.
setupOrFailEach(setup);

function setup(): void {
  rendered = {
    base: renderKustomization(join(DEPLOY_DIR, 'k8s/base')),
    dev: renderKustomization(join(DEPLOY_DIR, 'k8s/overlays/dev')),
    prod: renderKustomization(join(DEPLOY_DIR, 'k8s/overlays/prod')),
  };
  const broken = brokenManifests(rendered.dev, rendered.prod);
  // One tsc run for every set keeps the file fast.
  typeErrors = typecheckManifestSets([
    { name: 'base', objects: rendered.base },
    { name: 'dev', objects: rendered.dev },
    { name: 'prod', objects: rendered.prod },
    { name: 'typo-deployment', objects: [broken.typoDeployment] },
    { name: 'typo-servicemonitor', objects: [broken.typoMonitor] },
  ]);
}

describe('base', () => {
  it('renders on its own, every object passes its schema and has no unknown field', () => {
    expect(rendered.base.length).toBeGreaterThan(0);
    expect(validateSchemas(rendered.base)).toEqual([]);
    expect(typeErrors.base).toEqual([]);
  });

  it('has a Deployment, Service, ServiceAccount and ConfigMap for each service, and no replica count', () => {
    for (const s of SERVICE_NAMES) {
      const deployment = find(rendered.base, 'Deployment', s);
      expect(deployment, `Deployment ${s}`).toBeDefined();
      expect(
        (deployment!.spec as { replicas?: number }).replicas,
        `${s} replicas are left to overlays / HPA`,
      ).toBeUndefined();
      expect(find(rendered.base, 'Service', s), `Service ${s}`).toBeDefined();
      expect(find(rendered.base, 'ServiceAccount', s), `ServiceAccount ${s}`).toBeDefined();
      expect(
        byKind(rendered.base, 'ConfigMap').some((c) => c.metadata.name.startsWith(`${s}-config-`)),
        `ConfigMap ${s}-config`,
      ).toBe(true);
    }
  });
});

describe.each(Object.keys(OVERLAYS) as Overlay[])('overlay %s', (overlay) => {
  const objects = () => rendered[overlay];

  it('renders only kinds with a schema, and every object passes it', () => {
    expect(validateSchemas(objects())).toEqual([]);
  });

  it('has no unknown or mistyped field (kubernetes-types, tsc --strict)', () => {
    expect(typeErrors[overlay]).toEqual([]);
  });

  it('resolves every reference: selectors, ports, probes, ConfigMaps, Secrets, ServiceAccounts, targets', () => {
    expect(checkReferences(objects())).toEqual([]);
  });

  it('gives each service only the env variables it reads, with ports and addresses that line up', () => {
    expect(checkServiceConventions(objects())).toEqual([]);
  });

  it('hands each service (and migration Job) a configuration its own config schema accepts', async () => {
    // Values that live in Secrets stand in as well-formed placeholders.
    const SECRET_PLACEHOLDERS: Record<string, string> = {
      DATABASE_URL: 'postgres://switchboard:secret@switchboard-db-rw:5432/switchboard',
      SECRETS_KEY: 'cGxhY2Vob2xkZXItc2VjcmV0cy1rZXktMzItYnl0ZXM=',
      NATS_PASSWORD: 'placeholder-nats-password',
      INTERNAL_RPC_TOKEN: 'placeholder-internal-rpc-token',
      APPLICATIONS_RPC_TOKEN: 'placeholder-internal-rpc-token',
      WEBHOOKS_RPC_TOKEN: 'placeholder-internal-rpc-token',
      GATEWAY_RPC_TOKEN: 'placeholder-gateway-rpc-token',
    };
    const checked: string[] = [];
    for (const t of podTemplates(objects()).filter((p) => !p.virtual)) {
      for (const c of t.spec.containers) {
        const service = serviceOfImage(c.image ?? '');
        if (!service) continue;
        const env: Record<string, string> = {};
        for (const [name, v] of effectiveEnv(objects(), OVERLAYS[overlay], c)) {
          const value = v.value ?? SECRET_PLACEHOLDERS[name];
          expect(value, `${t.owner.metadata.name}: no value or placeholder for ${name}`).toBeDefined();
          env[name] = value!;
        }
        const { loadConfig } = (await import(join(REPO_ROOT, 'services', service, 'src/config.ts'))) as {
          loadConfig: (env: Record<string, string>) => unknown;
        };
        expect(() => loadConfig(env), `${t.owner.kind}/${t.owner.metadata.name}`).not.toThrow();
        checked.push(t.owner.metadata.name);
      }
    }
    expect(checked.sort()).toEqual([
      'applications',
      'applications-migrate',
      'dispatcher',
      'gateway',
      'webhooks',
      'webhooks-migrate',
    ]);
  });

  it("sets only variables that the service's config.ts reads (and NODE_ENV)", () => {
    for (const t of podTemplates(objects()).filter((p) => !p.virtual)) {
      for (const c of t.spec.containers) {
        const service = serviceOfImage(c.image ?? '');
        if (!service) continue;
        // The keys of the service's zod schema, fields spread from shared ones included.
        const read = new Set(configVariables(service));
        for (const name of effectiveEnv(objects(), OVERLAYS[overlay], c).keys()) {
          if (name !== 'NODE_ENV')
            expect(
              read.has(name),
              `${t.owner.metadata.name}: services/${service}/src/config.ts does not read ${name}`,
            ).toBe(true);
        }
      }
    }
  });

  it('gives applications, webhooks and the dispatcher the same DELIVERY_ALLOWED_CIDRS', () => {
    const value = (s: string) => {
      const c = (find(objects(), 'Deployment', s)!.spec as { template: { spec: { containers: Container[] } } }).template
        .spec.containers[0]!;
      return effectiveEnv(objects(), OVERLAYS[overlay], c).get('DELIVERY_ALLOWED_CIDRS')?.value;
    };
    expect(value('dispatcher')).toBeDefined();
    expect(value('applications')).toBe(value('dispatcher'));
    expect(value('webhooks')).toBe(value('dispatcher'));
  });

  it('has the gateway believe X-Forwarded-For from the pod network only (TRUSTED_PROXIES), so each client behind the ingress has its own login budget', async () => {
    const c = (find(objects(), 'Deployment', 'gateway')!.spec as { template: { spec: { containers: Container[] } } })
      .template.spec.containers[0]!;
    const value = effectiveEnv(objects(), OVERLAYS[overlay], c).get('TRUSTED_PROXIES')?.value;
    expect(value, 'TRUSTED_PROXIES').toBeTruthy();
    const { parseCidrList } = await import('@switchboard/security');
    const { clientAddress } = await import(join(REPO_ROOT, 'services/gateway/src/client-address.ts'));
    const trusted = parseCidrList(value!);
    // An ingress controller pod forwards two different clients: two addresses, two budgets.
    expect(clientAddress('10.244.3.17', '198.51.100.7', trusted)).toBe('198.51.100.7');
    expect(clientAddress('10.42.0.9', '203.0.113.40', trusted)).toBe('203.0.113.40');
    // A peer on the internet is not believed.
    expect(clientAddress('198.51.100.7', '203.0.113.40', trusted)).toBe('198.51.100.7');
  });

  it('runs every pod under the restricted security profile with resources set', () => {
    expect(checkPodSecurity(objects())).toEqual([]);
  });

  it('pins every image to a tag', () => {
    expect(checkImagesPinned(objects())).toEqual([]);
  });

  it(`puts everything in namespace ${OVERLAYS[overlay]}, labelled part-of switchboard, each name once per kind`, () => {
    const seen = new Set<string>();
    for (const o of objects()) {
      if (o.kind === 'Namespace') expect(o.metadata.name).toBe(OVERLAYS[overlay]);
      else expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBe(OVERLAYS[overlay]);
      expect(
        o.metadata.labels?.['app.kubernetes.io/part-of'],
        `${o.kind}/${o.metadata.name} label app.kubernetes.io/part-of`,
      ).toBe('switchboard');
      const key = `${o.apiVersion}/${o.kind}/${o.metadata.name}`;
      expect(seen.has(key), `duplicate ${key}`).toBe(false);
      seen.add(key);
    }
  });

  it('runs migrations as Jobs (applications, webhooks) while the services keep MIGRATE_ON_START=false', () => {
    for (const s of ['applications', 'webhooks'] as const) {
      const job = find(objects(), 'Job', `${s}-migrate`);
      expect(job, `Job ${s}-migrate`).toBeDefined();
      const c = (job!.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers[0]!;
      expect(serviceOfImage(c.image ?? '')).toBe(s);
      expect(c.workingDir).toBe(`/app/services/${s}`);
      const deployment = find(objects(), 'Deployment', s)!;
      const container = (deployment.spec as { template: { spec: { containers: Container[] } } }).template.spec
        .containers[0]!;
      // The Job runs the same release (image) as the Deployment it migrates for.
      expect(c.image).toBe(container.image);
      expect(effectiveEnv(objects(), OVERLAYS[overlay], container).get('MIGRATE_ON_START')?.value).toBe('false');
    }
  });

  it('validates the NATS configuration it ships (nats-server -t)', () => {
    const natsServer = requireTool('nats-server');
    const cm = byKind(objects(), 'ConfigMap').find((c) => c.metadata.name.startsWith('nats-config-'));
    expect(cm, 'nats-config ConfigMap').toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-nats-conf-'));
    try {
      const file = join(dir, 'nats.conf');
      writeFileSync(file, (cm!.data as Record<string, string>)['nats.conf']!);
      const passwords = {
        NATS_APPLICATIONS_PASSWORD: 'a',
        NATS_WEBHOOKS_PASSWORD: 'w',
        NATS_DISPATCHER_PASSWORD: 'd',
        NATS_CORE_PASSWORD: 'c',
        NATS_GATEWAY_PASSWORD: 'g',
      };
      const res = run(natsServer, ['-t', '-c', file], { env: { ...process.env, SERVER_NAME: 'nats-0', ...passwords } });
      expect(res.status, res.stderr + res.stdout).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('network policies', () => {
    const external = 'ingress';
    const endpoints = (): Record<string, Endpoint> => ({
      ...Object.fromEntries(
        [
          'gateway',
          'applications',
          'webhooks',
          'dispatcher',
          'nats',
          'postgres',
          'applications-migrate',
          'webhooks-migrate',
        ].map((n) => [n, podOf(objects(), n)]),
      ),
      [external]: foreignPod('ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' }),
      prometheus: foreignPod('monitoring', { 'app.kubernetes.io/name': 'prometheus' }),
      'kube-dns': foreignPod('kube-system', { 'k8s-app': 'kube-dns' }, [
        { name: 'dns', containerPort: 53, protocol: 'UDP' },
      ]),
    });
    const at = (name: string): Endpoint => endpoints()[name] ?? address(name);
    const PUBLIC_V4 = '93.184.216.34';
    const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

    const allowed: Array<[string, string, number, string?]> = [
      [external, 'gateway', 8080],
      ['gateway', 'applications', 50051],
      ['gateway', 'webhooks', 50052],
      ['webhooks', 'applications', 50051],
      ['dispatcher', 'applications', 50051],
      ['dispatcher', 'webhooks', 50052],
      ['applications', 'nats', 4222],
      ['webhooks', 'nats', 4222],
      ['dispatcher', 'nats', 4222],
      ['gateway', 'nats', 4222],
      ['nats', 'nats', 6222],
      ['applications', 'postgres', 5432],
      ['webhooks', 'postgres', 5432],
      ['applications-migrate', 'postgres', 5432],
      ['webhooks-migrate', 'postgres', 5432],
      ['prometheus', 'gateway', 8084],
      ['prometheus', 'applications', 8081],
      ['prometheus', 'webhooks', 8082],
      ['prometheus', 'dispatcher', 8083],
      ['dispatcher', PUBLIC_V4, 443],
      ['dispatcher', PUBLIC_V4, 80],
      ['dispatcher', PUBLIC_V6, 443],
      ...['gateway', 'applications', 'webhooks', 'dispatcher', 'nats', 'postgres', 'applications-migrate'].map(
        (n): [string, string, number, string] => [n, 'kube-dns', 53, 'UDP'],
      ),
    ];
    const denied: Array<[string, string, number, string?]> = [
      [external, 'applications', 50051],
      [external, 'webhooks', 50052],
      [external, 'dispatcher', 8083],
      [external, 'nats', 4222],
      [external, 'postgres', 5432],
      [external, 'applications', 8081],
      [external, 'gateway', 8084],
      ['gateway', 'postgres', 5432],
      ['gateway', PUBLIC_V4, 443],
      ['applications', 'webhooks', 50052],
      ['applications', PUBLIC_V4, 443],
      ['webhooks', PUBLIC_V4, 443],
      ['dispatcher', 'postgres', 5432],
      ['dispatcher', PUBLIC_V4, 22],
      // Private, loopback, link-local (cloud metadata) and CGNAT targets: SSRF stays blocked in the network too.
      ['dispatcher', '10.0.0.10', 443],
      ['dispatcher', '172.16.5.5', 80],
      ['dispatcher', '192.168.1.10', 443],
      ['dispatcher', '127.0.0.1', 80],
      ['dispatcher', '169.254.169.254', 80],
      ['dispatcher', '100.64.0.1', 443],
      ['dispatcher', 'fd00::1', 443],
      ['dispatcher', '::1', 80],
      ['prometheus', 'nats', 4222],
      ['prometheus', 'postgres', 5432],
      ['applications-migrate', 'nats', 4222],
      ['nats', 'postgres', 5432],
      ['gateway', 'kube-dns', 54, 'UDP'],
    ];

    it.each(allowed)('allows %s -> %s:%d', (from, to, port, protocol) => {
      const v = flowAllowed(objects(), at(from), at(to), port, protocol ?? 'TCP');
      expect(v.allowed, v.why).toBe(true);
    });

    it.each(denied)('denies %s -> %s:%d', (from, to, port, protocol) => {
      const v = flowAllowed(objects(), at(from), at(to), port, protocol ?? 'TCP');
      expect(v.allowed, `${from} -> ${to}:${port} should be denied`).toBe(false);
    });

    it('denies by default', () => {
      const deny = find(objects(), 'NetworkPolicy', 'default-deny-all');
      expect(deny?.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    });
  });
});

describe('overlay dev specifics', () => {
  const objects = () => rendered.dev;

  it('runs one replica of each service and no autoscaler', () => {
    for (const s of SERVICE_NAMES)
      expect((find(objects(), 'Deployment', s)!.spec as { replicas?: number }).replicas, s).toBe(1);
    expect(byKind(objects(), 'HorizontalPodAutoscaler')).toEqual([]);
  });

  it('runs a single NATS JetStream server and a single Postgres in the cluster', () => {
    const nats = find(objects(), 'StatefulSet', 'nats')!;
    expect((nats.spec as { replicas: number }).replicas).toBe(1);
    const conf = (
      byKind(objects(), 'ConfigMap').find((c) => c.metadata.name.startsWith('nats-config-'))!.data as Record<
        string,
        string
      >
    )['nats.conf']!;
    expect(conf).toMatch(/jetstream\s*\{/);
    expect(conf).not.toMatch(/cluster\s*\{/);
    const pg = find(objects(), 'StatefulSet', 'postgres')!;
    expect((pg.spec as { replicas: number }).replicas).toBe(1);
  });

  it('streams are created with one replica, matching the single NATS server', () => {
    for (const s of ['applications', 'webhooks', 'dispatcher'] as const) {
      const c = (find(objects(), 'Deployment', s)!.spec as { template: { spec: { containers: Container[] } } }).template
        .spec.containers[0]!;
      expect(effectiveEnv(objects(), 'switchboard-dev', c).get('NATS_STREAM_REPLICAS')?.value, s).toBe('1');
    }
  });
});

describe('overlay prod specifics', () => {
  const objects = () => rendered.prod;
  const container = (name: string): Container =>
    (find(objects(), 'Deployment', name)!.spec as { template: { spec: { containers: Container[] } } }).template.spec
      .containers[0]!;

  it('scales every service with an HPA of at least 2 replicas, and leaves the count to it', () => {
    for (const s of SERVICE_NAMES) {
      const deployment = find(objects(), 'Deployment', s)!;
      expect(
        (deployment.spec as { replicas?: number }).replicas,
        `${s}: an apply must not reset the HPA's count`,
      ).toBeUndefined();
      const hpa = byKind(objects(), 'HorizontalPodAutoscaler').find(
        (h) =>
          (h as unknown as HorizontalPodAutoscaler).spec?.scaleTargetRef.name === s &&
          (h as unknown as HorizontalPodAutoscaler).spec?.scaleTargetRef.kind === 'Deployment',
      ) as unknown as HorizontalPodAutoscaler | undefined;
      expect(hpa, `HPA for ${s}`).toBeDefined();
      expect(hpa!.spec!.minReplicas, s).toBeGreaterThanOrEqual(2);
      expect(hpa!.spec!.maxReplicas, s).toBeGreaterThanOrEqual(hpa!.spec!.minReplicas!);
    }
  });

  it('scales the gateway, applications and webhooks on CPU and the dispatcher on its consumer backlog', () => {
    const metrics = (s: string) =>
      (
        byKind(objects(), 'HorizontalPodAutoscaler').find(
          (h) => h.metadata.name === s,
        ) as unknown as HorizontalPodAutoscaler
      ).spec!.metrics ?? [];
    for (const s of ['gateway', 'applications', 'webhooks'])
      expect(
        metrics(s).some((m) => m.type === 'Resource' && m.resource?.name === 'cpu'),
        s,
      ).toBe(true);
    const backlog = metrics('dispatcher').find((m) => m.type === 'External');
    expect(backlog?.external?.metric.name).toBe('dispatcher_consumer_pending');
    expect(backlog?.external?.target.type).toBe('AverageValue');
  });

  it('has a PodDisruptionBudget for every service and for NATS', () => {
    const pdbs = byKind(objects(), 'PodDisruptionBudget').map((p) => p.metadata.name);
    for (const s of [...SERVICE_NAMES, 'nats']) expect(pdbs, s).toContain(s);
  });

  it('runs NATS as a three-server JetStream cluster whose routes name every pod', () => {
    const nats = find(objects(), 'StatefulSet', 'nats')!;
    const spec = nats.spec as { replicas: number; serviceName: string };
    expect(spec.replicas).toBe(3);
    const headless = find(objects(), 'Service', spec.serviceName)!;
    expect((headless.spec as { clusterIP?: string; publishNotReadyAddresses?: boolean }).clusterIP).toBe('None');
    expect((headless.spec as { publishNotReadyAddresses?: boolean }).publishNotReadyAddresses).toBe(true);
    const conf = (
      byKind(objects(), 'ConfigMap').find((c) => c.metadata.name.startsWith('nats-config-'))!.data as Record<
        string,
        string
      >
    )['nats.conf']!;
    expect(conf).toMatch(/cluster\s*\{/);
    expect(conf).toMatch(/server_name:\s*\$SERVER_NAME/);
    const routes = [...conf.matchAll(/nats:\/\/([a-z0-9.-]+):6222/g)].map((m) => m[1]);
    expect(routes).toEqual([0, 1, 2].map((i) => `nats-${i}.${spec.serviceName}`));
  });

  it('replicates streams on three servers (NATS_STREAM_REPLICAS=3), never more than the cluster has', () => {
    const servers = (find(objects(), 'StatefulSet', 'nats')!.spec as { replicas: number }).replicas;
    for (const s of ['applications', 'webhooks', 'dispatcher'] as const) {
      const value = effectiveEnv(objects(), 'switchboard', container(s)).get('NATS_STREAM_REPLICAS')?.value;
      expect(value, s).toBe('3');
      expect(Number(value)).toBeLessThanOrEqual(servers);
    }
  });

  it('refuses anonymous NATS clients: each service connects as its own user with a password from switchboard-nats-users; the gateway publishes only to the bucket of the shared limits, and holds only its own RPC token', () => {
    const conf = (
      byKind(objects(), 'ConfigMap').find((c) => c.metadata.name.startsWith('nats-config-'))!.data as Record<
        string,
        string
      >
    )['nats.conf']!;
    const nats = (find(objects(), 'StatefulSet', 'nats')!.spec as { template: { spec: { containers: Container[] } } })
      .template.spec.containers[0]!;
    const natsEnv = effectiveEnv(objects(), 'switchboard', nats);
    expect(conf).toMatch(/^authorization \{/m);
    for (const s of ['applications', 'webhooks', 'dispatcher', 'gateway'] as const) {
      const env = effectiveEnv(objects(), 'switchboard', container(s));
      expect(env.get('NATS_USER')?.value, s).toBe(s);
      expect(env.get('NATS_PASSWORD')?.from, s).toBe(`Secret switchboard-nats-users/${s}`);
      // The server checks that password for that user.
      const variable = `NATS_${s.toUpperCase()}_PASSWORD`;
      expect(conf).toMatch(new RegExp(`user: ${s}\\s+password: \\$${variable}\\b`));
      expect(natsEnv.get(variable)?.from).toBe(`Secret switchboard-nats-users/${s}`);
    }
    const gateway = effectiveEnv(objects(), 'switchboard', container('gateway'));
    // The gateway holds only its own token (the applications service's GATEWAY_RPC_TOKEN), never the
    // dispatcher's; the dispatcher never holds the gateway's.
    expect(gateway.get('APPLICATIONS_RPC_TOKEN')?.from).toBe('Secret switchboard-internal-rpc/gateway');
    expect(gateway.has('WEBHOOKS_RPC_TOKEN')).toBe(false);
    expect(effectiveEnv(objects(), 'switchboard', container('applications')).get('GATEWAY_RPC_TOKEN')?.from).toBe(
      'Secret switchboard-internal-rpc/gateway',
    );
    const dispatcher = effectiveEnv(objects(), 'switchboard', container('dispatcher'));
    for (const [name, v] of dispatcher) expect(v.from, name).not.toBe('Secret switchboard-internal-rpc/gateway');
    // The gateway's user publishes no event: only its connection's JetStream info request and what
    // keeps the bucket of the shared limits (SWITCHBOARD_LIMITS, and no other stream); it hears only
    // credentials and account notices.
    expect(conf).toMatch(
      /user: gateway\s+password: \$NATS_GATEWAY_PASSWORD\s+permissions: \{\s+publish: \{ allow: \["\$JS\.API\.INFO", "\$JS\.API\.STREAM\.INFO\.KV_SWITCHBOARD_LIMITS", "\$JS\.API\.STREAM\.CREATE\.KV_SWITCHBOARD_LIMITS", "\$JS\.API\.STREAM\.UPDATE\.KV_SWITCHBOARD_LIMITS", "\$JS\.API\.DIRECT\.GET\.KV_SWITCHBOARD_LIMITS\.>", "\$KV\.SWITCHBOARD_LIMITS\.>", "_INBOX\.>"\] \}\s+subscribe: \{ allow: \["_INBOX\.>", "credentials\.>", "accounts\.>"\] \}/,
    );
  });

  it('serves the RPCs that answer signing secrets to the dispatcher alone: it holds the tokens the applications and webhooks services require', () => {
    const dispatcher = effectiveEnv(objects(), 'switchboard', container('dispatcher'));
    for (const [s, variable] of [
      ['applications', 'APPLICATIONS_RPC_TOKEN'],
      ['webhooks', 'WEBHOOKS_RPC_TOKEN'],
    ] as const) {
      const required = effectiveEnv(objects(), 'switchboard', container(s)).get('INTERNAL_RPC_TOKEN')?.from;
      expect(required, s).toBe(`Secret switchboard-internal-rpc/${s}`);
      expect(dispatcher.get(variable)?.from).toBe(required);
    }
  });

  it('gives every NATS client the three servers by their pod names (NATS_URL)', () => {
    for (const s of ['applications', 'webhooks', 'dispatcher'] as const) {
      const value = effectiveEnv(objects(), 'switchboard', container(s)).get('NATS_URL')?.value;
      expect(value?.split(','), s).toEqual([0, 1, 2].map((i) => `nats://nats-${i}.nats-headless:4222`));
    }
  });

  it('uses CloudNativePG for Postgres and reads DATABASE_URL from its app Secret, with no Secret in the repo', () => {
    const clusters = objects().filter((o) => o.apiVersion === 'postgresql.cnpg.io/v1' && o.kind === 'Cluster');
    expect(clusters).toHaveLength(1);
    const cluster = clusters[0]!;
    expect((cluster.spec as { instances: number }).instances).toBeGreaterThanOrEqual(3);
    expect(byKind(objects(), 'Secret')).toEqual([]);
    expect(find(objects(), 'StatefulSet', 'postgres')).toBeUndefined();
    const users = [
      ...['applications', 'webhooks'].map((s) => container(s)),
      ...['applications-migrate', 'webhooks-migrate'].map(
        (j) =>
          (find(objects(), 'Job', j)!.spec as { template: { spec: { containers: Container[] } } }).template.spec
            .containers[0]!,
      ),
    ];
    for (const c of users) {
      const ref = c.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef;
      expect(ref, c.name).toEqual({ name: `${cluster.metadata.name}-app`, key: 'uri' });
    }
  });

  it('allows enough Postgres connections for the largest applications + webhooks fleet', async () => {
    // Each process holds up to DB_POOL_MAX connections (the value its config resolves to here);
    // migrations (2 each), the operator and superuser sessions need some headroom.
    const HEADROOM = 20;
    const cluster = objects().find((o) => o.kind === 'Cluster')!;
    const maxConnections = Number(
      (cluster.spec as { postgresql: { parameters: Record<string, string> } }).postgresql.parameters.max_connections,
    );
    let needed = HEADROOM;
    for (const s of ['applications', 'webhooks'] as const) {
      const hpa = byKind(objects(), 'HorizontalPodAutoscaler').find(
        (h) => h.metadata.name === s,
      ) as unknown as HorizontalPodAutoscaler;
      const fromSecret = (k: string) =>
        k === 'SECRETS_KEY'
          ? 'cGxhY2Vob2xkZXItc2VjcmV0cy1rZXktMzItYnl0ZXM='
          : k.endsWith('_TOKEN')
            ? `placeholder-${k.toLowerCase()}`
            : 'postgres://u:p@db:5432/switchboard';
      const env = Object.fromEntries(
        [...effectiveEnv(objects(), 'switchboard', container(s))].map(([k, v]) => [k, v.value ?? fromSecret(k)]),
      );
      const { loadConfig } = (await import(join(REPO_ROOT, 'services', s, 'src/config.ts'))) as {
        loadConfig: (env: Record<string, string>) => { DB_POOL_MAX?: number };
      };
      const pool = loadConfig(env).DB_POOL_MAX ?? 10;
      needed += hpa.spec!.maxReplicas * pool;
    }
    expect(maxConnections).toBeGreaterThanOrEqual(needed);
  });

  it('monitors every service with a ServiceMonitor whose job label is the service name', () => {
    for (const s of SERVICE_NAMES) {
      const sm = find(objects(), 'ServiceMonitor', s);
      expect(sm, s).toBeDefined();
      const spec = sm!.spec as { jobLabel?: string; endpoints: Array<{ port: string; path: string }> };
      expect(spec.jobLabel).toBe('app.kubernetes.io/name');
      expect(spec.endpoints[0]!.path).toBe('/metrics');
      const svc = find(objects(), 'Service', s)!;
      const port = (svc.spec as { ports: Array<{ name: string; port: number }> }).ports.find(
        (p) => p.name === spec.endpoints[0]!.port,
      );
      expect(port?.port, s).toBe(SERVICES[s].opsPort);
    }
  });

  it('ships exactly the alert rules of deploy/prometheus/alerts.yml as its PrometheusRule', () => {
    const rule = find(objects(), 'PrometheusRule', 'switchboard');
    expect(rule).toBeDefined();
    const source = parse(readFileSync(join(DEPLOY_DIR, 'prometheus/alerts.yml'), 'utf8')) as { groups: unknown };
    expect(
      (rule!.spec as { groups: unknown }).groups,
      'out of sync: run npx tsx deploy/scripts/sync-prometheus-rule.ts',
    ).toEqual(source.groups);
  });

  it('pulls release images from a registry, never a dev tag', () => {
    for (const t of podTemplates(objects()).filter((p) => !p.virtual))
      for (const c of t.spec.containers)
        if (serviceOfImage(c.image ?? '')) {
          expect(c.image, c.name).toMatch(/^[a-z0-9.-]+\.[a-z]+(:\d+)?\/.+:\d+\.\d+\.\d+([-+][\w.]+)?$/);
        }
  });
});

describe('the checker itself', () => {
  it('rejects a misspelt field (ports[0].portz) through the type check', () => {
    expect(typeErrors['typo-deployment']!.join('\n')).toMatch(
      /Deployment\/gateway: TS2353: .*'"portz"' does not exist in type 'ContainerPort'/,
    );
  });

  it('rejects a misspelt field in a custom resource (ServiceMonitor endpoints[0].intervall)', () => {
    expect(typeErrors['typo-servicemonitor']!.join('\n')).toMatch(
      /ServiceMonitor\/gateway: TS2353: .*'"intervall"' does not exist in type 'ServiceMonitorEndpoint'/,
    );
  });

  it('rejects a wrong type and a missing required field through kubernetes-models', () => {
    const d = structuredClone(find(rendered.dev, 'Deployment', 'gateway')!);
    const c = (d.spec as { template: { spec: { containers: Array<Record<string, unknown>> } } }).template.spec
      .containers[0]!;
    (c.ports as Array<Record<string, unknown>>)[0]!.containerPort = 'http';
    expect(validateSchemas([d]).join('\n')).toMatch(/containerPort must be integer/);
    delete (d.spec as Record<string, unknown>).selector;
    expect(validateSchemas([d]).join('\n')).toMatch(/selector/);
  });

  it('rejects an unknown kind and a broken custom resource', () => {
    const unknown = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };
    expect(validateSchemas([unknown])).toEqual([expect.stringMatching(/no schema check for example.com\/v1\/Widget/)]);
    const rule = structuredClone(find(rendered.prod, 'PrometheusRule', 'switchboard')!);
    (rule.spec as { groups: Array<{ rules: Array<Record<string, unknown>> }> }).groups[0]!.rules[0]!.for =
      'two minutes';
    expect(validateSchemas([rule]).join('\n')).toMatch(/for is not a duration/);
  });

  it('rejects an env variable the service does not read', () => {
    const objects = structuredClone(rendered.dev);
    const cm = byKind(objects, 'ConfigMap').find((c) => c.metadata.name.startsWith('gateway-config-'))!;
    (cm.data as Record<string, string>).LOG_LEVLE = 'debug';
    expect(checkServiceConventions(objects)).toEqual([
      expect.stringMatching(/gateway: env LOG_LEVLE is not read by gateway/),
    ]);
  });

  it('rejects a container or migration Job that runs the TypeScript sources with tsx', () => {
    const objects = structuredClone(rendered.dev);
    const d = find(objects, 'Deployment', 'dispatcher')!;
    (d.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers[0]!.command = [
      'node',
      '--import',
      'tsx',
      'src/main.ts',
    ];
    const job = find(objects, 'Job', 'webhooks-migrate')!;
    (job.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers[0]!.command = [
      'node',
      '--import',
      'tsx',
      'src/migrate.ts',
    ];
    const errors = checkServiceConventions(objects).join('\n');
    expect(errors).toMatch(
      /Deployment\/dispatcher container dispatcher: runs TypeScript \(node --import tsx src\/main.ts\)/,
    );
    expect(errors).toMatch(/Job\/webhooks-migrate container migrate: must run node dist\/migrate.js/);
  });

  it('rejects a port variable that disagrees with the container port', () => {
    const objects = structuredClone(rendered.dev);
    const cm = byKind(objects, 'ConfigMap').find((c) => c.metadata.name.startsWith('applications-config-'))!;
    (cm.data as Record<string, string>).OPS_PORT = '9999';
    expect(checkServiceConventions(objects).join('\n')).toMatch(/OPS_PORT=9999 but container port ops is 8081/);
  });

  it('rejects a gRPC address that is not a Service of the right pods', () => {
    const objects = structuredClone(rendered.dev);
    const cm = byKind(objects, 'ConfigMap').find((c) => c.metadata.name.startsWith('gateway-config-'))!;
    (cm.data as Record<string, string>).WEBHOOKS_GRPC_URL = 'applications:50051';
    expect(checkServiceConventions(objects).join('\n')).toMatch(
      /WEBHOOKS_GRPC_URL points at Service applications, which does not select the webhooks pods/,
    );
  });

  it('rejects a NATS_URL server that is not a pod of the NATS StatefulSet or a Service', () => {
    const objects = structuredClone(rendered.prod);
    const cm = byKind(objects, 'ConfigMap').find((c) => c.metadata.name.startsWith('dispatcher-config-'))!;
    (cm.data as Record<string, string>).NATS_URL =
      'nats://nats-0.nats-headless:4222,nats://nats-3.nats-headless:4222,nats://natz:4222';
    const errors = checkServiceConventions(objects).join('\n');
    expect(errors).toMatch(
      /NATS_URL nats:\/\/nats-3.nats-headless:4222 names pod nats-3, but StatefulSet nats has 3 replicas/,
    );
    expect(errors).toMatch(/NATS_URL points at natz, which is not a Service/);
    expect(errors).not.toMatch(/nats-0/);
  });

  it('rejects a Service whose selector matches nothing and a probe on an undeclared port', () => {
    const objects = structuredClone(rendered.dev);
    const svc = find(objects, 'Service', 'webhooks')!;
    (svc.spec as { selector: Record<string, string> }).selector = { 'app.kubernetes.io/name': 'webhook' };
    const d = find(objects, 'Deployment', 'dispatcher')!;
    const c = (d.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers[0]!;
    c.readinessProbe!.httpGet!.port = 'metrics';
    const errors = checkReferences(objects).join('\n');
    expect(errors).toMatch(/Service\/webhooks: selector .* matches no Deployment or StatefulSet/);
    expect(errors).toMatch(
      /Deployment\/dispatcher container dispatcher: readinessProbe port metrics is not a declared container port/,
    );
  });

  it('rejects a pod that may escalate privileges or writes its root filesystem', () => {
    const objects = structuredClone(rendered.dev);
    const d = find(objects, 'Deployment', 'gateway')!;
    const c = (d.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers[0]!;
    c.securityContext = { ...c.securityContext, allowPrivilegeEscalation: true, readOnlyRootFilesystem: false };
    expect(checkPodSecurity(objects)).toEqual([
      expect.stringMatching(/gateway: allowPrivilegeEscalation must be false/),
      expect.stringMatching(/gateway: readOnlyRootFilesystem must be true/),
    ]);
  });

  it('notices a flow the policies no longer allow', () => {
    const objects = structuredClone(rendered.dev).filter(
      (o) => !(o.kind === 'NetworkPolicy' && o.metadata.name === 'gateway'),
    );
    // Without its own policy the default deny holds: no public traffic in, no calls out.
    expect(flowAllowed(objects, foreignPod('ingress-nginx', {}), podOf(objects, 'gateway'), 8080).allowed).toBe(false);
    expect(flowAllowed(objects, podOf(objects, 'gateway'), podOf(objects, 'applications'), 50051).allowed).toBe(false);
  });
});
