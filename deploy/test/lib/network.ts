// A small NetworkPolicy evaluator (networking.k8s.io/v1 semantics) to check the rendered policies
// against the intended flow matrix: a flow is allowed when the source's egress and the
// destination's ingress both allow it. Policies outside the rendered set are not modelled
// (pods in other namespaces are treated as unrestricted on their side).
import type { ContainerPort } from 'kubernetes-types/core/v1';
import type { NetworkPolicyPeer, NetworkPolicyPort, NetworkPolicySpec } from 'kubernetes-types/networking/v1';
import { podTemplates, selectorMatches, type K8sObject } from './k8s';

export type Endpoint =
  | {
      kind: 'pod';
      name: string;
      namespace: string;
      labels: Record<string, string>;
      namespaceLabels: Record<string, string>;
      ports: ContainerPort[];
    }
  | { kind: 'ip'; name: string; ip: string };

/** A pod of the rendered set, by its app.kubernetes.io/name label. */
export function podOf(objects: K8sObject[], name: string): Endpoint {
  const tpl = podTemplates(objects).find((t) => t.labels['app.kubernetes.io/name'] === name);
  if (!tpl) throw new Error(`no pod template labelled app.kubernetes.io/name=${name}`);
  const nsObject = objects.find((o) => o.kind === 'Namespace' && o.metadata.name === tpl.namespace);
  return {
    kind: 'pod',
    name,
    namespace: tpl.namespace,
    labels: tpl.labels,
    namespaceLabels: { ...(nsObject?.metadata.labels ?? {}), 'kubernetes.io/metadata.name': tpl.namespace },
    ports: tpl.spec.containers.flatMap((c) => c.ports ?? []),
  };
}

/** A pod of another namespace (ingress controller, Prometheus, cluster DNS). */
export function foreignPod(namespace: string, labels: Record<string, string>, ports: ContainerPort[] = []): Endpoint {
  return {
    kind: 'pod',
    name: `${namespace}/${Object.values(labels).join(',')}`,
    namespace,
    labels,
    namespaceLabels: { 'kubernetes.io/metadata.name': namespace },
    ports,
  };
}

export const address = (ip: string): Endpoint => ({ kind: 'ip', name: ip, ip });

function policyTypes(spec: NetworkPolicySpec): string[] {
  return spec.policyTypes ?? ['Ingress', ...(spec.egress ? ['Egress'] : [])];
}

function peerMatches(peer: NetworkPolicyPeer, ep: Endpoint, policyNamespace: string): boolean {
  if (peer.ipBlock)
    return (
      ep.kind === 'ip' &&
      cidrContains(peer.ipBlock.cidr, ep.ip) &&
      !(peer.ipBlock.except ?? []).some((c) => cidrContains(c, ep.ip))
    );
  if (ep.kind !== 'pod') return false;
  const nsOk = peer.namespaceSelector
    ? selectorMatches(peer.namespaceSelector, ep.namespaceLabels)
    : ep.namespace === policyNamespace;
  const podOk = peer.podSelector ? selectorMatches(peer.podSelector, ep.labels) : true;
  return nsOk && podOk;
}

function portMatches(ports: NetworkPolicyPort[] | undefined, dest: Endpoint, port: number, protocol: string): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'number') return p.endPort ? port >= p.port && port <= p.endPort : port === p.port;
    return (
      dest.kind === 'pod' &&
      dest.ports.some((cp) => cp.name === p.port && cp.containerPort === port && (cp.protocol ?? 'TCP') === protocol)
    );
  });
}

export interface Verdict {
  allowed: boolean;
  why: string;
}

export function flowAllowed(
  objects: K8sObject[],
  from: Endpoint,
  to: Endpoint,
  port: number,
  protocol = 'TCP',
): Verdict {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const nsOf = (o: K8sObject) => o.metadata.namespace ?? 'default';

  // One side of the flow: the policies of `type` that select `pod` (if any) must have a rule whose
  // peers take `peer` and whose ports take the flow's port at `to`; the verdict when they do not.
  const side = (
    type: 'Egress' | 'Ingress',
    pod: Endpoint,
    peer: Endpoint,
    rules: (spec: NetworkPolicySpec) => { peers?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[],
  ): Verdict | undefined => {
    if (pod.kind !== 'pod') return undefined;
    const selecting = policies.filter((p) => {
      const spec = p.spec as NetworkPolicySpec;
      return (
        nsOf(p) === pod.namespace && policyTypes(spec).includes(type) && selectorMatches(spec.podSelector, pod.labels)
      );
    });
    if (selecting.length === 0) return undefined;
    const ok = selecting.some((p) =>
      rules(p.spec as NetworkPolicySpec).some(
        (r) =>
          (!r.peers || r.peers.length === 0 || r.peers.some((q) => peerMatches(q, peer, nsOf(p)))) &&
          portMatches(r.ports, to, port, protocol),
      ),
    );
    if (ok) return undefined;
    return {
      allowed: false,
      why: `${type.toLowerCase()} of ${pod.name} denied by ${selecting.map((p) => p.metadata.name).join(', ')}`,
    };
  };
  const denied =
    side('Egress', from, to, (spec) => (spec.egress ?? []).map((r) => ({ peers: r.to, ports: r.ports }))) ??
    side('Ingress', to, from, (spec) => (spec.ingress ?? []).map((r) => ({ peers: r.from, ports: r.ports })));
  if (denied) return denied;
  return { allowed: true, why: 'allowed' };
}

// ------------------------------------------------------------------------------- CIDRs

function parseIp(ip: string): { v: 4 | 6; n: bigint } | undefined {
  if (ip.includes('.') && !ip.includes(':')) {
    const parts = ip.split('.').map(Number);
    if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
    return { v: 4, n: parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n) };
  }
  if (!ip.includes(':')) return undefined;
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  if (groups.length !== 8) return undefined;
  return { v: 6, n: groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || '0', 16)), 0n) };
}

export function cidrContains(cidr: string, ip: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const net = parseIp(base!);
  const addr = parseIp(ip);
  if (!net || !addr || net.v !== addr.v) return false;
  const width = net.v === 4 ? 32n : 128n;
  const bits = BigInt(bitsText ?? width.toString());
  const shift = width - bits;
  return net.n >> shift === addr.n >> shift;
}
