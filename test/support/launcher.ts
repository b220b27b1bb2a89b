// The one launcher of the repository's processes: the tests' stacks, the benchmarks, the proof
// cluster and `npm start` start every service through it. A service runs as a child process
// (`node --import tsx src/main.ts` in its folder, from source) or in-process (its createApp, as most
// tests run it); either way it is configured by environment, ready when its operations port
// answers, stopped with SIGTERM (a child: SIGKILL after a deadline), and its metrics read from its
// operations port. launchProcess runs any other program the same way (baselines, nats-server).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApplicationsApp } from '@switchboard/applications';
import type { DispatcherApp } from '@switchboard/dispatcher';
import type { GatewayApp } from '@switchboard/gateway';
import type { Logger } from '@switchboard/observability';
import type { WebhooksApp } from '@switchboard/webhooks';
import { freePort, waitFor } from './infra';

/** The checkout this launcher belongs to. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type ServiceName = 'applications' | 'webhooks' | 'dispatcher' | 'gateway';

/** Every service, in the order a whole stack starts them (the services others call first). */
export const SERVICE_NAMES: readonly ServiceName[] = ['applications', 'webhooks', 'dispatcher', 'gateway'];

/** Node's arguments that run a TypeScript file from source (the packages' `@switchboard/source` entry points). */
export const TSX_ARGS: readonly string[] = ['--conditions=@switchboard/source', '--import', 'tsx'];

/** How long a child has between SIGTERM and SIGKILL, unless its launcher says otherwise. */
const DEFAULT_GRACE_MS = 10_000;
/** How long a process may take to become ready, unless its launcher says otherwise. */
const DEFAULT_READY_TIMEOUT_MS = 60_000;
/** The end of a captured child's output kept for messages: enough for a stack trace. */
const LOG_TAIL_CHARS = 8000;

// ---------------------------------------------------------------------------------------------
// Any process

export interface ProcessOptions {
  /** Its name in messages (e.g. `gateway-2`). */
  name: string;
  /** A TypeScript entry point run with Node from source (TSX_ARGS), relative to `cwd`; or `command`. */
  script?: string;
  /** Node flags before TSX_ARGS (e.g. `--cpu-prof`), with `script`. */
  nodeFlags?: readonly string[];
  /** A program other than Node, with `args`. */
  command?: string;
  args?: readonly string[];
  /** Working directory (default: the checkout's root). */
  cwd?: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Polled (every 100 ms) by start() until true; a probe that throws counts as not ready. */
  ready?: () => Promise<boolean>;
  /** How long start() waits for `ready` (default 60 s). */
  readyTimeoutMs?: number;
  /**
   * `capture` (default): its stdout and stderr are kept (the last LOG_TAIL_CHARS, logs()) and
   * written to this process's stderr only when it fails on its own; `inherit`: they go to this
   * process's stdout and stderr (`npm start`).
   */
  output?: 'capture' | 'inherit';
  /** How long stop() waits after SIGTERM before SIGKILL (default 10 s). */
  graceMs?: number;
  /** Called when the process ends without stop() or kill9() asking it to. */
  onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface LaunchedProcess {
  readonly name: string;
  /** The running (or last) child process; undefined before the first start(). */
  readonly child: ChildProcess | undefined;
  /** Its process id while it runs. */
  pid(): number | undefined;
  alive(): boolean;
  /** Starts it (again, after it ended) and waits until it is ready; no-op while it runs. */
  start(): Promise<void>;
  /** SIGTERM, then SIGKILL after the grace period; resolves once it exited. */
  stop(): Promise<void>;
  /** SIGKILL: no drain, no goodbye. */
  kill9(): Promise<void>;
  /** The end of its captured output ('' with output `inherit`). */
  logs(): string;
}

/** A process that start() runs; nothing runs before. */
export function launchProcess(o: ProcessOptions): LaunchedProcess {
  if (!o.script === !o.command) throw new Error(`${o.name}: give a script or a command`);
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let running = false;
  let asked = false;
  let tail = '';
  const alive = () => running;
  const keep = (d: Buffer) => {
    tail = (tail + d.toString()).slice(-LOG_TAIL_CHARS);
  };
  const capture = (o.output ?? 'capture') === 'capture';
  /** The captured output, on lines of its own after a message. */
  const logTail = () => (tail ? `\n${tail}` : '');
  const spawnIt = () => {
    const [command, args] = o.script
      ? [process.execPath, [...(o.nodeFlags ?? []), ...TSX_ARGS, o.script]]
      : [o.command!, [...(o.args ?? [])]];
    const c = spawn(command, args, {
      cwd: o.cwd ?? ROOT,
      env: { ...process.env, ...o.env },
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    });
    c.stdout?.on('data', keep);
    c.stderr?.on('data', keep);
    running = true;
    asked = false;
    tail = '';
    exited = new Promise<void>((resolve) => {
      const end = (code: number | null, signal: NodeJS.Signals | null) => {
        if (!running) return;
        running = false;
        if (!asked) {
          if (capture && code !== 0) process.stderr.write(`${o.name} exited with ${signal ?? code}${logTail()}\n`);
          o.onExit?.(code, signal);
        }
        resolve();
      };
      // 'close': after its output is read to the end; also after 'error' when it could not be started.
      c.once('close', end);
      c.once('error', (err) => keep(Buffer.from(`${String(err)}\n`)));
    });
    child = c;
    return c;
  };
  return {
    name: o.name,
    get child() {
      return child;
    },
    pid: () => (alive() ? child?.pid : undefined),
    alive,
    async start() {
      if (alive()) return;
      const c = spawnIt();
      if (!o.ready) return;
      const ready = o.ready;
      const ended = exited.then(() => {
        throw new Error(`${o.name} exited with ${c.signalCode ?? c.exitCode} before it was ready${logTail()}`);
      });
      let waiting = true;
      try {
        await Promise.race([
          ended,
          waitFor(async () => !waiting || (await ready()), {
            timeoutMs: o.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
            intervalMs: 100,
            what: `${o.name} ready`,
          }).catch((err: Error) => {
            throw new Error(`${err.message}${logTail()}`);
          }),
        ]);
      } finally {
        waiting = false;
        ended.catch(() => undefined);
      }
    },
    async stop() {
      if (!alive()) return;
      asked = true;
      const c = child!;
      c.kill('SIGTERM');
      const t = setTimeout(() => c.kill('SIGKILL'), o.graceMs ?? DEFAULT_GRACE_MS);
      await exited;
      clearTimeout(t);
    },
    async kill9() {
      if (!alive()) return;
      asked = true;
      child!.kill('SIGKILL');
      await exited;
    },
    logs: () => tail,
  };
}

/** A readiness probe: `url` answers `status` (within 2 s). */
export function answers(url: string, status = 200): () => Promise<boolean> {
  return async () => (await fetch(url, { signal: AbortSignal.timeout(2000) })).status === status;
}

// ---------------------------------------------------------------------------------------------
// A service: its ports, as a child process, in-process

export interface ServicePorts {
  /** The gateway's API port (PORT). */
  api?: number;
  /** gRPC port of applications and webhooks (GRPC_PORT). */
  grpc?: number;
  /** Operations port (OPS_PORT): /healthz, /readyz, /metrics. */
  ops?: number;
}

const PORT_VARIABLES: Record<ServiceName, Partial<Record<keyof ServicePorts, string>>> = {
  applications: { grpc: 'GRPC_PORT', ops: 'OPS_PORT' },
  webhooks: { grpc: 'GRPC_PORT', ops: 'OPS_PORT' },
  dispatcher: { ops: 'OPS_PORT' },
  gateway: { api: 'PORT', ops: 'OPS_PORT' },
};

/** The environment variables that put `service` on `ports` (the ports it has). */
export function portEnv(service: ServiceName, ports: ServicePorts): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, variable] of Object.entries(PORT_VARIABLES[service]))
    if (ports[key as keyof ServicePorts] !== undefined) env[variable] = String(ports[key as keyof ServicePorts]);
  return env;
}

/** The ports `env` puts `service` on (those it sets). */
export function portsOf(service: ServiceName, env: Record<string, string | undefined>): ServicePorts {
  const ports: ServicePorts = {};
  for (const [key, variable] of Object.entries(PORT_VARIABLES[service]))
    if (env[variable] !== undefined) ports[key as keyof ServicePorts] = Number(env[variable]);
  return ports;
}

/** Free loopback ports for every port `service` listens on. */
export async function freeServicePorts(service: ServiceName): Promise<ServicePorts> {
  const ports: ServicePorts = {};
  for (const key of Object.keys(PORT_VARIABLES[service])) ports[key as keyof ServicePorts] = await freePort();
  return ports;
}

/** The text of a service's /metrics, on its operations port. */
async function metricsAt(name: string, ops: number | undefined): Promise<string> {
  if (!ops) throw new Error(`${name} has no known operations port (OPS_PORT)`);
  return (await fetch(`http://127.0.0.1:${ops}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
}

export interface ServiceProcessOptions
  extends Omit<ProcessOptions, 'name' | 'script' | 'command' | 'args' | 'cwd' | 'ready'> {
  /** Its name in messages (default: the service's). */
  name?: string;
  /** The whole configuration, ports included (portEnv); added to this process's environment. */
  env: Record<string, string>;
  /**
   * Ready when this path answers 200 on the operations port (default `/readyz`; `/healthz`: up,
   * whether or not what it calls is; false: at once). A service without OPS_PORT in `env` is not waited for.
   */
  readyPath?: '/readyz' | '/healthz' | false;
  /** The services folder of another checkout (default: this one's). */
  servicesDir?: string;
}

export interface ServiceProcess extends LaunchedProcess {
  readonly service: ServiceName;
  /** The ports its environment sets. */
  readonly ports: ServicePorts;
  metrics(): Promise<string>;
}

/** `service` as a child process (src/main.ts in its folder); start() runs it. */
export function serviceProcess(service: ServiceName, o: ServiceProcessOptions): ServiceProcess {
  const name = o.name ?? service;
  const ports = portsOf(service, o.env);
  const path = o.readyPath ?? '/readyz';
  const proc = launchProcess({
    ...o,
    name,
    script: 'src/main.ts',
    cwd: join(o.servicesDir ?? join(ROOT, 'services'), service),
    ...(path && ports.ops ? { ready: answers(`http://127.0.0.1:${ports.ops}${path}`) } : {}),
  });
  return Object.assign(proc, { service, ports, metrics: () => metricsAt(name, ports.ops) });
}

/** `service` as a child process, started and ready. */
export async function launchService(service: ServiceName, o: ServiceProcessOptions): Promise<ServiceProcess> {
  const p = serviceProcess(service, o);
  await p.start();
  return p;
}

/** The app each service's createApp makes. */
export interface ServiceApps {
  applications: ApplicationsApp;
  webhooks: WebhooksApp;
  dispatcher: DispatcherApp;
  gateway: GatewayApp;
}

export interface InProcessOptions {
  /** Its name in messages (default: the service's). */
  name?: string;
  /** The whole configuration, ports included (portEnv; port 0 takes a free one); nothing else is read. */
  env: Record<string, string>;
  /** Its logger (default: the service's own, at LOG_LEVEL). */
  logger?: Logger;
  /** The applications service's clock of browser sessions (default: the wall clock). */
  now?: () => Date;
}

export interface InProcessService<S extends ServiceName> {
  readonly service: S;
  readonly name: string;
  /** The running app (a new one after stop() and start()). */
  readonly app: ServiceApps[S];
  /** The ports it listens on (start() again keeps them). */
  readonly ports: ServicePorts;
  alive(): boolean;
  /** Starts it again after stop(), on the same ports; no-op while it runs. */
  start(): Promise<void>;
  stop(): Promise<void>;
  metrics(): Promise<string>;
}

type Create<S extends ServiceName> = (env: Record<string, string>, o: InProcessOptions) => Promise<ServiceApps[S]>;

// Each service's module is loaded when it is first started, so a stack of one service loads no other.
const CREATE: { [S in ServiceName]: Create<S> } = {
  async applications(env, o) {
    const m = await import('@switchboard/applications');
    return m.createApp(m.loadConfig(env), o.logger, { now: o.now });
  },
  async webhooks(env, o) {
    const m = await import('@switchboard/webhooks');
    return m.createApp(m.loadConfig(env), o.logger);
  },
  async dispatcher(env, o) {
    const m = await import('@switchboard/dispatcher');
    return m.createApp(m.loadConfig(env), { logger: o.logger });
  },
  async gateway(env, o) {
    const m = await import('@switchboard/gateway');
    return m.createApp(m.loadConfig(env), o.logger);
  },
};

/** `service` in this process (its createApp), started: its ports listen and its consumers run. */
export async function startInProcess<S extends ServiceName>(
  service: S,
  o: InProcessOptions,
): Promise<InProcessService<S>> {
  const name = o.name ?? service;
  let env = o.env;
  let app: ServiceApps[S] | undefined;
  let ports: ServicePorts = {};
  const run = async () => {
    const created = await CREATE[service](env, o);
    const bound = (await created.start()) as { port?: number; grpcPort?: number; opsPort: number };
    ports = {
      ...(bound.port !== undefined ? { api: bound.port } : {}),
      ...(bound.grpcPort !== undefined ? { grpc: bound.grpcPort } : {}),
      ops: bound.opsPort,
    };
    // Started again, it listens where it did (ports asked as 0 included).
    env = { ...env, ...portEnv(service, ports) };
    app = created;
  };
  await run();
  let running = true;
  return {
    service,
    name,
    get app() {
      return app!;
    },
    get ports() {
      return ports;
    },
    alive: () => running,
    async start() {
      if (running) return;
      await run();
      running = true;
    },
    async stop() {
      if (!running) return;
      running = false;
      await app!.stop();
    },
    metrics: () => metricsAt(name, ports.ops),
  };
}
