// The core every delivery policy shares: one HTTP attempt to a target, signed (Standard Webhooks),
// under the circuit breaker and within the host limiter, after waiting in memory for a slot when the
// host is busy. It makes the attempt, or says why none could be made now; what follows an attempt is
// the worker's to decide (outcome.ts). Breakers and host queues are per account and host (a lane):
// one tenant's failing or hanging receiver on a shared host opens no breaker and fills no queue of
// another tenant on that host.
import { type BreakerMap, type FireResult, HostFailure } from './breakers.ts';
import type { HostLimiter, Refusal, Release } from './host-limiter.ts';
import type { AttemptResult, HttpSender, PostOptions, Target } from './http-sender.ts';
import { isHostFailure } from './outcome.ts';
import { signatureHeaders } from './signing.ts';

export type HostWait = Refusal['reason'];

export type Attempted =
  /** The target URL is refused before any connection (scheme, credentials, private address). */
  | { kind: 'refused'; reason: string }
  /** The host cannot take an attempt now (nor the job wait in memory); it could in about `delayMs`. No attempt was spent. */
  | { kind: 'wait'; reason: HostWait; delayMs: number }
  | { kind: 'attempted'; result: AttemptResult };

export interface SignedPost {
  /** The account the attempt is made for: its lane on the target host (null: an unknown account's own lane). */
  accountId: string | null;
  url: string;
  body: string;
  /** HMAC keys: the current secret and, during a rotation, the previous one. */
  keys: Buffer[];
  /** The webhook-id header. */
  webhookId: string;
  /** Timeout of this attempt and whether its answer is read (sessions); by default the sender's. */
  options?: PostOptions;
  /**
   * Epoch ms by which the attempt must be over (sessions): the time spent waiting for a slot comes
   * out of its timeout, and a slot given too late is handed back unused (a `host_busy` wait).
   */
  notAfter?: number;
  /** A subscription's custom headers; the signature headers (and Content-Type, User-Agent) win over them. */
  headers?: Record<string, string>;
}

/**
 * A send that has been admitted: it holds a slot or waits in its host's queue (or was turned
 * away). An object, so that awaiting start() does not wait for the attempt.
 */
export interface Sending {
  readonly attempted: Promise<Attempted>;
}

/** The key of an account's breaker and queue for a host. */
export const laneOf = (accountId: string | null, host: string): string => `${accountId ?? '-'}@${host}`;

const wait = (r: Refusal): Attempted => ({
  kind: 'wait',
  reason: r.reason,
  delayMs: r.waitMs + Math.round(Math.random() * Math.min(1000, r.waitMs)),
});

export class SignedSender {
  constructor(
    private readonly http: HttpSender,
    private readonly breakers: BreakerMap,
    private readonly limiter: HostLimiter,
  ) {}

  /**
   * Starts one send: returns once the attempt has a slot or waits in memory for one (FIFO per
   * host), or was refused; `attempted` settles when the attempt is done.
   */
  start(p: SignedPost): Sending {
    const target = this.http.target(p.url);
    if ('refusal' in target) return { attempted: Promise.resolve({ kind: 'refused', reason: target.refusal }) };
    const lane = laneOf(p.accountId, target.host);
    const admission = this.limiter.acquire(lane);
    if ('refused' in admission) return { attempted: Promise.resolve(wait(admission.refused)) };
    return {
      attempted: admission.slot.then((slot) =>
        typeof slot === 'function' ? this.post(p, target, lane, slot) : wait(slot),
      ),
    };
  }

  private async post(
    p: SignedPost,
    target: Extract<Target, { host: string }>,
    lane: string,
    release: Release,
  ): Promise<Attempted> {
    let options = p.options;
    if (p.notAfter !== undefined) {
      const left = p.notAfter - Date.now();
      if (left < 100) {
        release();
        return wait({ reason: 'host_busy', waitMs: 0 });
      }
      options = { ...options, timeoutMs: Math.min(options?.timeoutMs ?? left, left) };
    }
    let fired: FireResult<AttemptResult>;
    try {
      fired = await this.breakers.fire(lane, async () => {
        // Object.assign, not a literal with spreads: a spread followed by more properties is V8's slow path.
        const r = await this.http.post(
          p.url,
          p.body,
          Object.assign({}, p.headers, signatureHeaders(p.keys, p.webhookId, p.body)),
          target,
          options,
        );
        if (isHostFailure(r)) throw new HostFailure(r);
        return r;
      });
    } finally {
      release();
    }
    if (fired.rejected) return wait({ reason: 'breaker_open', waitMs: fired.retryInMs });
    return { kind: 'attempted', result: fired.value };
  }
}
