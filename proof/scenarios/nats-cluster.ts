// The production NATS topology (deploy/k8s/overlays/prod): three JetStream servers clustered on
// loopback, every stream created with 3 replicas (NATS_STREAM_REPLICAS=3), every service given all
// three URLs. Under a steady stream of cdr.created and sessions.new events, kill -9 one server
// that does not lead the events stream, restart it, then kill -9 the stream's current leader and
// restart it. Reports events lost (acknowledged by JetStream, never answered 2xx), duplicates, and
// per kill the time until deliveries resume: from the kill to the first delivery of an event first
// published after it (the whole path: publish, stream, consumer, dispatcher, receiver).
import { STREAMS } from '@switchboard/events';
import { startCluster, type Cluster, type ClusterOptions, type Service } from '../cluster';
import { cdrEvent, sessionEvent, startEventLoad } from '../lib/load';
import { jsz, startNatsCluster, type NatsCluster, type NatsNode } from '../lib/nats-cluster';
import { duplicates, startReceiver, type PathStats, type Receiver } from '../lib/receiver';
import { sleep } from '../lib/stats';
import { finish, newTarget, until, type Scale, type ScenarioResult } from './common';

export interface NatsClusterShape {
  /** Events per second (half cdr.created, half sessions.new). */
  eventRate: number;
  /** Load before the first kill, between the two kills, and after the second. */
  beforeMs: number;
  betweenMs: number;
  afterMs: number;
  /** How long each killed server stays down. */
  downMs: number;
  /** Deliveries must resume within this after each kill. */
  resumeBoundMs: number;
  drainTimeoutMs: number;
}

export const NATS_CLUSTER_SHAPE: NatsClusterShape = {
  eventRate: 40,
  beforeMs: 5000,
  betweenMs: 8000,
  afterMs: 5000,
  downMs: 10_000,
  resumeBoundMs: 30_000,
  drainTimeoutMs: 120_000,
};

const NATS_SERVICES: Service[] = ['applications', 'webhooks', 'dispatcher'];

interface KillReport {
  role: 'follower' | 'leader';
  server: string;
  killedAtMs: number;
  restartedAtMs: number;
  /** Leader of the events stream before the kill and once a leader is elected after it. */
  leaderBefore: string;
  leaderAfter?: string;
  /** The streams and consumers (STREAM/consumer) the killed server led. */
  ledByVictim: string[];
  /** From the kill until the events stream has a leader among the survivors (0: it kept its leader). */
  electionMs?: number;
  /** From the kill to the first 2xx delivery of an event first published after the kill (-1: never). */
  resumeMs: number;
  /** The longest pause between two 2xx deliveries while the server was down and catching up. */
  longestGapMs: number;
  /** From the restart until every replica of every stream is current again (-1: not within 60 s). */
  caughtUpMs: number;
  /** Every NATS connection of every service found again on the surviving servers. */
  clientsFailedOver: boolean;
}

/** Every stream's replica count and leader, through the JetStream API. */
async function streamsInfo(
  cluster: Cluster,
): Promise<
  Array<{ name: string; replicas: number; leader?: string; peers: Array<{ name: string; current: boolean }> }>
> {
  const out = [];
  for await (const si of cluster.bus.jsm.streams.list()) {
    out.push({
      name: si.config.name,
      replicas: si.config.num_replicas,
      leader: si.cluster?.leader,
      peers: (si.cluster?.replicas ?? []).map((r) => ({ name: r.name, current: r.current })),
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The leader of the events stream through the JetStream API (authoritative; waits for an answer). */
async function eventsLeader(cluster: Cluster): Promise<string | undefined> {
  return (await cluster.bus.jsm.streams.info(STREAMS.events.name)).cluster?.leader;
}

interface JszDetail {
  account_details?: Array<{
    stream_detail?: Array<{
      name: string;
      cluster?: { leader?: string };
      consumer_detail?: Array<{ name: string; cluster?: { leader?: string } }>;
    }>;
  }>;
}

/** Leaders of every stream and consumer (`STREAM/consumer`) as a live server's monitoring endpoint (/jsz) reports them. */
async function leadersSeenBy(node: NatsNode): Promise<Record<string, string>> {
  const j = (await jsz(node, '?accounts=true&streams=true&consumers=true')) as JszDetail;
  const out: Record<string, string> = {};
  for (const st of j.account_details?.flatMap((a) => a.stream_detail ?? []) ?? []) {
    if (st.cluster?.leader) out[st.name] = st.cluster.leader;
    for (const c of st.consumer_detail ?? []) if (c.cluster?.leader) out[`${st.name}/${c.name}`] = c.cluster.leader;
  }
  return out;
}

/** The leader of the events stream as the live servers report it, when it is a live server. */
async function eventsLeaderSeenBy(nats: NatsCluster): Promise<string | undefined> {
  for (const n of nats.nodes.filter((x) => x.alive())) {
    const leader = (await leadersSeenBy(n).catch(() => ({}) as Record<string, string>))[STREAMS.events.name];
    if (leader && nats.node(leader).alive()) return leader;
  }
  return undefined;
}

/** NATS connections by client name (applications, webhooks, dispatcher, proof) on the live servers. */
async function connectionsByName(nodes: NatsNode[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const n of nodes.filter((x) => x.alive())) {
    const res = await fetch(`${n.monitorUrl}/connz?limit=4096`, { signal: AbortSignal.timeout(2000) });
    const body = (await res.json()) as { connections?: Array<{ name?: string }> };
    for (const c of body.connections ?? []) out[c.name ?? ''] = (out[c.name ?? ''] ?? 0) + 1;
  }
  return out;
}

function expectedConnections(cluster: Cluster): Record<string, number> {
  return Object.fromEntries(NATS_SERVICES.map((s) => [s, cluster.of(s).length]));
}

async function clientsOn(cluster: Cluster, nats: NatsCluster, timeoutMs: number): Promise<boolean> {
  const want = expectedConnections(cluster);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const got = await connectionsByName(nats.nodes).catch(() => ({}) as Record<string, number>);
    if (Object.entries(want).every(([name, n]) => (got[name] ?? 0) >= n)) return true;
    await sleep(200);
  }
  return false;
}

/** Waits until every replica of every stream is current; returns how long it took (-1: timed out). */
async function caughtUp(cluster: Cluster, timeoutMs: number): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    const info = await streamsInfo(cluster).catch(() => []);
    if (
      info.length &&
      info.every((s) => s.leader && s.peers.length === s.replicas - 1 && s.peers.every((p) => p.current))
    )
      return Date.now() - t0;
    await sleep(200);
  }
  return -1;
}

/** Longest pause between consecutive first deliveries within [from, to]. */
function longestGap(stats: PathStats[], from: number, to: number): number {
  const times = stats
    .flatMap((s) => [...s.firstOkAt.values()])
    .filter((t) => t >= from && t <= to)
    .sort((a, b) => a - b);
  let gap = times.length ? times[0]! - from : to - from;
  for (let i = 1; i < times.length; i++) gap = Math.max(gap, times[i]! - times[i - 1]!);
  return gap;
}

export async function natsClusterScenario(
  scale: Scale,
  shape = NATS_CLUSTER_SHAPE,
  counts: Pick<ClusterOptions, 'gateways' | 'applications' | 'webhooks' | 'dispatchers' | 'privatePostgres'> = {},
): Promise<ScenarioResult> {
  const started = Date.now();
  const ms = (v: number) => Math.round(v * scale.factor);
  const nats = await startNatsCluster(3);
  const cluster = await startCluster({ ...counts, nats, env: { NATS_STREAM_REPLICAS: '3' } });
  let rx: Receiver | undefined;
  try {
    rx = await startReceiver('127.0.0.1');
    const r = rx;
    const streamsAtStart = await streamsInfo(cluster);
    const clientsAtStart = await connectionsByName(nats.nodes);
    const t = await newTarget(cluster, r, 'nats-cluster');
    const createdAt = new Map<string, number>();
    const events = startEventLoad({
      bus: cluster.bus,
      ratePerSecond: shape.eventRate,
      make: (i) => {
        const e =
          i % 2 === 0
            ? cdrEvent(`natsc-c${i}`, t.account.id)
            : sessionEvent(`natsc-s${i}`, t.account.id, t.applicationId);
        createdAt.set(e.id, Date.now());
        return e;
      },
    });
    const paths = () => [r.stats(t.eventsPath), r.stats(t.sessionsPath)];
    // Every 500 ms: events acknowledged by JetStream, events delivered, failed publish attempts.
    const timeline: Array<[number, number, number, number]> = [];
    const sampler = setInterval(() => {
      timeline.push([
        Date.now() - started,
        events.published.size,
        paths().reduce((n, s) => n + s.okEvents.size, 0),
        events.publishRetries,
      ]);
    }, 500);
    const firstOk = (id: string) =>
      paths().reduce<number | undefined>(
        (m, s) => (s.firstOkAt.has(id) ? Math.min(m ?? Infinity, s.firstOkAt.get(id)!) : m),
        undefined,
      );

    const killOne = async (role: 'follower' | 'leader'): Promise<KillReport> => {
      const leaderBefore = (await eventsLeader(cluster)) ?? '';
      const leaders = await leadersSeenBy(nats.node(leaderBefore)).catch(() => ({}) as Record<string, string>);
      let victim: NatsNode;
      if (role === 'leader') victim = nats.node(leaderBefore);
      else {
        // Of the servers not leading the stream, the one leading the consumer of the events stream
        // (its loss stalls the pull requests of the dispatchers), else the one with most clients.
        const candidates = await Promise.all(
          nats.nodes
            .filter((n) => n.name !== leaderBefore)
            .map(async (n) => {
              const res = await fetch(`${n.monitorUrl}/connz?limit=4096`, { signal: AbortSignal.timeout(2000) });
              const clients = ((await res.json()) as { num_connections?: number }).num_connections ?? 0;
              const consumers = Object.entries(leaders).filter(
                ([asset, l]) => l === n.name && asset.startsWith(`${STREAMS.events.name}/`),
              ).length;
              return { n, score: consumers * 1000 + clients };
            }),
        );
        victim = candidates.sort((a, b) => b.score - a.score)[0]!.n;
      }
      // Streams and consumers the victim leads: each needs a new leader elected.
      const ledByVictim = Object.entries(leaders)
        .filter(([, l]) => l === victim.name)
        .map(([asset]) => asset)
        .sort();
      const killAt = Date.now();
      await victim.kill9();
      // A new leader among the survivors (or the same one, when a follower was killed).
      let leaderAfter: string | undefined;
      const electedAt = await (async () => {
        const deadline = Date.now() + ms(shape.downMs) + 30_000;
        while (Date.now() < deadline) {
          leaderAfter = await eventsLeaderSeenBy(nats);
          if (leaderAfter && leaderAfter !== victim.name) return Date.now();
          await sleep(100);
        }
        return undefined;
      })();
      const remaining = killAt + ms(shape.downMs) - Date.now();
      if (remaining > 0) await sleep(remaining);
      const clientsFailedOver = await clientsOn(cluster, nats, 15_000);
      const restartAt = Date.now();
      await victim.start();
      const caughtUpMs = await caughtUp(cluster, 60_000);
      const resumed = await until(() => {
        for (const [id, at] of createdAt) if (at >= killAt && firstOk(id) !== undefined) return true;
        return false;
      }, shape.resumeBoundMs);
      let resumeAt: number | undefined;
      if (resumed !== undefined)
        for (const [id, at] of createdAt) {
          if (at < killAt) continue;
          const ok = firstOk(id);
          if (ok !== undefined && (resumeAt === undefined || ok < resumeAt)) resumeAt = ok;
        }
      return {
        role,
        server: victim.name,
        leaderBefore,
        ledByVictim,
        ...(leaderAfter ? { leaderAfter } : {}),
        ...(electedAt ? { electionMs: role === 'leader' ? electedAt - killAt : 0 } : {}),
        killedAtMs: killAt - started,
        restartedAtMs: restartAt - started,
        resumeMs: resumeAt !== undefined ? resumeAt - killAt : -1,
        longestGapMs: longestGap(paths(), killAt, Math.max(Date.now(), restartAt)),
        caughtUpMs,
        clientsFailedOver,
      };
    };

    await sleep(ms(shape.beforeMs));
    const follower = await killOne('follower');
    await sleep(ms(shape.betweenMs));
    const leader = await killOne('leader');
    await sleep(ms(shape.afterMs));
    await events.stop();
    clearInterval(sampler);

    const delivered = () => [...events.published].every((id) => firstOk(id) !== undefined);
    const drainedAt = await until(delivered, shape.drainTimeoutMs);
    await sleep(500); // late duplicates
    const lost = [...events.published].filter((id) => firstOk(id) === undefined).length;
    const dups = paths().reduce((n, s) => n + duplicates(s), 0);
    const streamsAtEnd = await streamsInfo(cluster);
    const kills = [follower, leader];
    const r3 = (s: Array<{ replicas: number; peers: unknown[] }>) =>
      s.length >= 3 && s.every((x) => x.replicas === 3 && x.peers.length === 2);
    return finish(
      {
        name: 'nats-cluster',
        eventsPublished: events.published.size,
        eventsLost: lost,
        duplicates: dups,
        // Both servers' time down; the time until deliveries resumed after each kill is in `kills`.
        outageMs: kills.reduce((n, k) => n + k.restartedAtMs - k.killedAtMs, 0),
        figures: {
          natsUrl: cluster.env.NATS_URL,
          streams: Object.fromEntries(streamsAtStart.map((s) => [s.name, `R${s.replicas}, leader ${s.leader}`])),
          clientsAtStart,
          kills,
          publishRetries: events.publishRetries,
          drainedAfterLoadMs: drainedAt ? drainedAt - started : -1,
          timeline: { columns: ['ms since start', 'published', 'delivered', 'publish retries'], rows: timeline },
        },
      },
      started,
      {
        'every stream created with 3 replicas': r3(streamsAtStart) && r3(streamsAtEnd),
        'every service connected to NATS at start': NATS_SERVICES.every(
          (s) => (clientsAtStart[s] ?? 0) >= cluster.of(s).length,
        ),
        'no event lost': lost === 0,
        'every event delivered in time': drainedAt !== undefined,
        'a new leader elected after the leader was killed':
          !!leader.leaderAfter && leader.leaderAfter !== leader.server,
        'deliveries resumed within the bound after each kill': kills.every(
          (k) => k.resumeMs >= 0 && k.resumeMs <= shape.resumeBoundMs,
        ),
        'restarted servers caught up': kills.every((k) => k.caughtUpMs >= 0),
        'every service reconnected to the surviving servers': kills.every((k) => k.clientsFailedOver),
      },
    );
  } finally {
    await rx?.close();
    await cluster.stop();
  }
}
