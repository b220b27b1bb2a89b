// One HTTP attempt: POST with a timeout, no redirects, and the SSRF guard (docs/events.md#delivery). Names
// are resolved here, every resolved address is judged, and the socket connects to the addresses
// that were judged (a custom lookup), so a DNS answer that changes between check and connect
// (rebinding) cannot reach a private address. What a name resolves to is for operators only: the
// refusal a tenant sees in the delivery record does not name the address (it goes to the log).
import { createHash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { EventEmitter } from 'node:events';
import { LRUCache } from 'lru-cache';
import { Agent } from 'undici';
import { isAddressAllowed, judgeHost, type Cidr } from '@switchboard/security';
import type { Logger } from '@switchboard/observability';
import { withoutPropagation } from '@switchboard/observability/tracing';

class RefusedTargetError extends Error {
  readonly code = 'ESSRF';
  constructor(message: string) {
    super(message);
    this.name = 'RefusedTargetError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Resolver = (hostname: string, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, cb) => dnsLookup(hostname, { all: true }, cb);

/** The refusal recorded when a name resolves to an address that is not allowed; it names no address. */
export const RESOLVED_REFUSAL = 'refused: resolves to a forbidden address';

/** Told which name resolved to which refused address (for the operators' log). */
export type RefusalListener = (hostname: string, address: string) => void;

/**
 * A `lookup` for net.connect that refuses a name when any address it resolves to is private,
 * loopback or link-local and not allowed by `allowed`.
 */
export function guardedLookup(
  allowed: readonly Cidr[],
  resolve: Resolver = systemResolver,
  onRefused?: RefusalListener,
) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number | string } | undefined,
    callback: LookupCallback,
  ): void => {
    resolve(hostname, (err, addresses) => {
      if (err) return callback(err, '');
      const family =
        options?.family === 6 || options?.family === 'IPv6'
          ? 6
          : options?.family === 4 || options?.family === 'IPv4'
            ? 4
            : 0;
      const candidates = family ? addresses.filter((a) => a.family === family) : addresses;
      if (candidates.length === 0) {
        const e: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
        e.code = 'ENOTFOUND';
        return callback(e, '');
      }
      const refused = candidates.find((a) => !isAddressAllowed(a.address, allowed));
      if (refused) {
        onRefused?.(hostname, refused.address);
        return callback(new RefusedTargetError(RESOLVED_REFUSAL), '');
      }
      if (options?.all) return callback(null, candidates);
      const first = candidates[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

export type AttemptResult =
  | {
      kind: 'response';
      status: number;
      durationMs: number;
      retryAfter: string | undefined;
      location: string | undefined;
      /** The answer, read only when the attempt asked for it (PostOptions.readBodyUpTo). */
      answer?: Answer;
    }
  | { kind: 'error'; error: string; code: string; durationMs: number; timedOut: boolean; refused: boolean };

/** A response body read up to a limit: `tooLarge` when it went past it (then `body` is cut). */
export interface Answer {
  contentType: string | undefined;
  body: Buffer;
  tooLarge: boolean;
}

/** Per-attempt settings; by default the sender's timeout and the body discarded. */
export interface PostOptions {
  timeoutMs?: number;
  /** Read the response body up to this many bytes (one more is read to tell a body that is too large). */
  readBodyUpTo?: number;
  /** A client certificate and its key (PEM) to present to a TLS target (a subscription's `tls`). */
  clientTls?: { clientCertificate: string; privateKey: string };
}

/** Connection pools with a client certificate kept at most (one per certificate in use; the least recently used closes). */
export const CLIENT_TLS_POOLS_MAX = 1000;

export interface HttpSenderOptions {
  timeoutMs: number;
  allowedCidrs: readonly Cidr[];
  /** For tests: replaces DNS resolution. */
  resolver?: Resolver;
  /** Gets the name and address of refusals after DNS resolution (which the recorded error leaves out). */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * The signal that times an attempt out: an EventEmitter that emits `abort` with a `reason`, which
 * undici takes as well as an AbortSignal, with a timer cleared when the attempt ends. It has no
 * `aborted` property: undici hands a signal that has one to Node's addAbortListener, which takes
 * only an AbortSignal. Not
 * AbortSignal.timeout (tens of microseconds to create: a weak reference and a finalization registry
 * entry, and its timer stays armed for the whole timeout after the attempt), nor an AbortController
 * (an EventTarget: several times the cost of the rest of the attempt's bookkeeping).
 */
class AttemptTimeout extends EventEmitter {
  timedOut = false;
  reason: DOMException | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(ms: number) {
    super();
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.reason = new DOMException(`timed out after ${ms} ms`, 'TimeoutError');
      this.emit('abort');
    }, ms);
    this.timer.unref();
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/** Sent with every attempt, over the caller's headers of the same names. */
const FIXED_HEADERS = { 'content-type': 'application/json', 'user-agent': 'Switchboard-Webhooks/1' } as const;

/** A target URL that passed the checks, split for the request; or why it is refused. */
export type Target = { origin: string; path: string; host: string } | { refusal: string };

export class HttpSender {
  private readonly agent: Agent;
  /** Verdicts of check() by URL: targets repeat, parsing and judging them once is enough. */
  private readonly targets = new LRUCache<string, Target>({ max: 10_000 });

  /** One pool per client certificate (mTLS), by the hash of the pair. */
  private readonly tlsAgents = new LRUCache<string, Agent>({
    max: CLIENT_TLS_POOLS_MAX,
    dispose: (agent) => void agent.close().catch(() => undefined),
  });

  constructor(private readonly opts: HttpSenderOptions) {
    this.agent = this.makeAgent();
  }

  /** The pool of a client certificate: the shared one's settings plus the pair. */
  private agentFor(tls: PostOptions['clientTls']): Agent {
    if (!tls) return this.agent;
    const key = createHash('sha256')
      .update(tls.clientCertificate)
      .update('\0')
      .update(tls.privateKey)
      .digest('base64url');
    let agent = this.tlsAgents.get(key);
    if (!agent) {
      agent = this.makeAgent({ cert: tls.clientCertificate, key: tls.privateKey });
      this.tlsAgents.set(key, agent);
    }
    return agent;
  }

  private makeAgent(clientTls: { cert: string; key: string } | Record<string, never> = {}): Agent {
    const opts = this.opts;
    return new Agent({
      connect: {
        ...clientTls,
        lookup: guardedLookup(opts.allowedCidrs, opts.resolver, (host, address) =>
          opts.logger?.warn(
            { host, address },
            'delivery refused: the target name resolves to a private, loopback or link-local address',
          ),
        ) as never,
        timeout: opts.timeoutMs,
      },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 60_000,
      // HTTP/1.1 to every target: undici would otherwise speak HTTP/2 to a TLS target that offers it.
      allowH2: false,
    });
  }

  /** Checks a URL before any connection: scheme, and literal addresses (which skip DNS). */
  check(url: string): string | undefined {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return 'invalid target URL';
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `refused: ${u.protocol} is not http or https`;
    if (u.username || u.password) return 'refused: credentials in the target URL';
    const verdict = judgeHost(u.hostname, this.opts.allowedCidrs);
    if (verdict.kind === 'address' && !verdict.allowed)
      return `refused: ${u.hostname} is a private, loopback or link-local address`;
    return undefined;
  }

  /** check(), cached, with the parts a request needs. */
  target(url: string): Target {
    let t = this.targets.get(url);
    if (!t) {
      const refusal = this.check(url);
      if (refusal) t = { refusal };
      else {
        const u = new URL(url);
        t = { origin: u.origin, path: `${u.pathname}${u.search}`, host: u.host };
      }
      this.targets.set(url, t);
    }
    return t;
  }

  async post(
    url: string,
    body: string,
    headers: Record<string, string>,
    checked: Target = this.target(url),
    options: PostOptions = {},
  ): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if ('refusal' in checked)
      return { kind: 'error', error: checked.refusal, code: 'ESSRF', durationMs: 0, timedOut: false, refused: true };
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs;
    // A name goes through the guarded lookup; a literal IP never does (it was judged above). The
    // signal bounds the whole attempt, reading the answer included: a body that never ends times out.
    const signal = new AttemptTimeout(timeoutMs);
    try {
      // Customers' hosts are told nothing of our traces (no traceparent); the span is still recorded.
      const res = await withoutPropagation(() =>
        this.agentFor(options.clientTls).request({
          origin: checked.origin,
          path: checked.path,
          method: 'POST',
          headers: Object.assign({}, headers, FIXED_HEADERS),
          body,
          signal,
          // The signal is what times an attempt out; undici's own timers are coarse (they can fire
          // up to half a second early), so they only stand behind it.
          headersTimeout: timeoutMs + 1000,
          bodyTimeout: timeoutMs + 1000,
        }),
      );
      const header = (name: string) => {
        const v = res.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      let answer: Answer | undefined;
      if (options.readBodyUpTo !== undefined)
        answer = { contentType: header('content-type'), ...(await readUpTo(res.body, options.readBodyUpTo)) };
      // Otherwise the answer is not used; read (a bounded amount of) it so the connection can be reused.
      else await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      return {
        kind: 'response',
        status: res.statusCode,
        durationMs: elapsed(),
        retryAfter: header('retry-after'),
        location: header('location'),
        ...(answer ? { answer } : {}),
      };
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
      const refused = e.code === 'ESSRF' || e.cause?.code === 'ESSRF' || err instanceof RefusedTargetError;
      const timedOut =
        !refused &&
        (signal.timedOut || e.name === 'TimeoutError' || /Timeout/i.test(e.code ?? '') || e.code === 'ETIMEDOUT');
      const code = refused ? 'ESSRF' : timedOut ? 'ETIMEDOUT' : (e.code ?? e.cause?.code ?? 'ERROR');
      const message = refused
        ? (e.message ?? e.cause?.message ?? 'refused')
        : timedOut
          ? `timed out after ${timeoutMs} ms`
          : `${code}: ${e.cause?.message ?? e.message ?? String(err)}`;
      return { kind: 'error', error: message.slice(0, 500), code, durationMs: elapsed(), timedOut, refused };
    } finally {
      signal.clear();
    }
  }

  async close(): Promise<void> {
    this.tlsAgents.clear();
    await this.agent.close().catch(() => this.agent.destroy());
  }
}

/**
 * Reads a body up to `limit` bytes and one more; past that the body is destroyed (the connection is
 * not reused) and reported too large. Errors (abort on timeout included) are thrown to post().
 */
async function readUpTo(
  stream: AsyncIterable<Buffer> & { destroy(): unknown },
  limit: number,
): Promise<{ body: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > limit) {
      stream.destroy();
      return { body: Buffer.concat(chunks).subarray(0, limit), tooLarge: true };
    }
  }
  return { body: Buffer.concat(chunks), tooLarge: false };
}
