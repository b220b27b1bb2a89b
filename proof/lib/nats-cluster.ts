// A three-server NATS JetStream cluster on loopback, the topology of deploy/k8s/overlays/prod:
// every server with its own store directory, client, cluster and monitoring ports (free ones),
// routes to the other two. Any server can be killed with SIGKILL and restarted on the same ports
// with its data; clients are given all three URLs.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  freePort,
  natsHealthy,
  natsServerArgs,
  natsServerBinary,
  waitFor,
  type NatsServer,
} from '../../test/support/infra';
import { launchProcess } from '../../test/support/launcher';

export interface NatsNode {
  /** server_name, as JetStream reports it (stream leaders, replicas). */
  name: string;
  url: string;
  monitorUrl: string;
  alive(): boolean;
  start(): Promise<void>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/** Also a NatsServer: `url` lists every member, restart() is a rolling restart. */
export interface NatsCluster extends NatsServer {
  nodes: NatsNode[];
  node(name: string): NatsNode;
  /** Waits until a JetStream meta leader is elected (the cluster takes API requests). */
  ready(timeoutMs?: number): Promise<void>;
}

interface Jsz {
  meta_cluster?: { leader?: string; replicas?: Array<{ name: string; current: boolean }> };
}

/** The monitoring endpoint's JetStream report of one server. */
export async function jsz(node: NatsNode, query = ''): Promise<Jsz & Record<string, unknown>> {
  const res = await fetch(`${node.monitorUrl}/jsz${query}`, { signal: AbortSignal.timeout(2000) });
  return (await res.json()) as Jsz & Record<string, unknown>;
}

/** `n` free loopback ports, all different (freePort never hands out a port twice). */
async function distinctFreePorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < n; i++) ports.push(await freePort());
  return ports;
}

export async function startNatsCluster(size = 3, clusterName = 'sb'): Promise<NatsCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-natsc-'));
  const free = await distinctFreePorts(size * 3);
  const ports = Array.from({ length: size }, (_, i) => ({
    client: free[3 * i]!,
    cluster: free[3 * i + 1]!,
    monitor: free[3 * i + 2]!,
  }));
  const nodes: NatsNode[] = ports.map((p, i) => {
    const name = `n${i + 1}`;
    const store = join(dir, name);
    mkdirSync(store);
    const routes = ports
      .filter((_, j) => j !== i)
      .map((o) => `nats://127.0.0.1:${o.cluster}`)
      .join(',');
    const proc = launchProcess({
      name: `nats-server ${name}`,
      command: natsServerBinary(),
      args: natsServerArgs({
        port: p.client,
        monitorPort: p.monitor,
        dir: store,
        extra: [
          '-cluster',
          `nats://127.0.0.1:${p.cluster}`,
          '-routes',
          routes,
          '--cluster_name',
          clusterName,
          '-server_name',
          name,
        ],
      }),
      ready: () => natsHealthy(p.monitor),
      readyTimeoutMs: 20_000,
      graceMs: 10_000,
    });
    return {
      name,
      url: `nats://127.0.0.1:${p.client}`,
      monitorUrl: `http://127.0.0.1:${p.monitor}`,
      alive: proc.alive,
      start: proc.start,
      kill9: proc.kill9,
      stop: proc.stop,
    };
  });
  const ready = async (timeoutMs = 30_000) => {
    await waitFor(
      async () => {
        for (const n of nodes.filter((x) => x.alive())) {
          const meta = (await jsz(n).catch(() => undefined))?.meta_cluster;
          // Elected, and the leader sees every other member current: replicas can be placed.
          if (meta?.leader === n.name && meta.replicas?.length === size - 1 && meta.replicas.every((r) => r.current))
            return true;
        }
        return false;
      },
      { timeoutMs, intervalMs: 100, what: 'a JetStream meta leader' },
    );
  };
  const stopAll = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  };
  const startAll = async () => {
    await Promise.all(nodes.map((n) => n.start()));
    await ready();
  };
  try {
    await startAll();
  } catch (err) {
    await Promise.all(nodes.map((n) => n.kill9()));
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    nodes,
    node(name) {
      const n = nodes.find((x) => x.name === name);
      if (!n) throw new Error(`no NATS server named ${name}`);
      return n;
    },
    ready,
    url: nodes.map((n) => n.url).join(','),
    port: ports[0]!.client,
    start: startAll,
    stop: stopAll,
    async restart() {
      for (const n of nodes) {
        await n.stop();
        await n.start();
        await ready();
      }
    },
    async destroy() {
      await stopAll();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
