// The core every delivery policy shares: one HTTP attempt to a target, signed (Standard Webhooks),
// under the host's circuit breaker and within the host limiter. It makes the attempt, or says why
// none could be made now; what follows an attempt is the policy's to decide (policies/).
import { BreakerMap, HostFailure } from './breakers';
import type { HostLimiter } from './host-limiter';
import type { AttemptResult, HttpSender } from './http-sender';
import { isHostFailure } from './outcome';
import { jitter } from './retry';
import { signatureHeaders } from './signing';

export type HostWait = 'breaker_open' | 'host_busy';

export type Attempted =
  /** The target URL is refused before any connection (scheme, credentials, private address). */
  | { kind: 'refused'; reason: string }
  /** The host cannot take an attempt now; it could in about `delayMs`. No attempt was spent. */
  | { kind: 'wait'; reason: HostWait; delayMs: number }
  | { kind: 'attempted'; result: AttemptResult };

export interface SignedPost {
  url: string;
  body: string;
  /** HMAC keys: the current secret and, during a rotation, the previous one. */
  keys: Buffer[];
  /** The webhook-id header. */
  webhookId: string;
  /** A subscription's custom headers; the signature headers (and Content-Type, User-Agent) win over them. */
  headers?: Record<string, string>;
}


export class SignedSender {
  constructor(
    private readonly http: HttpSender,
    private readonly breakers: BreakerMap,
    private readonly limiter: HostLimiter,
  ) {}

  async attempt(p: SignedPost): Promise<Attempted> {
    const target = this.http.target(p.url);
    if ('refusal' in target) return { kind: 'refused', reason: target.refusal };
    const host = target.host;
    const open = this.breakers.waitFor(host);
    if (open > 0) return { kind: 'wait', reason: 'breaker_open', delayMs: open + Math.round(Math.random() * 1000) };
    const release = await this.limiter.acquire(host);
    if (!release) return { kind: 'wait', reason: 'host_busy', delayMs: jitter(1500) };
    let fired;
    try {
      fired = await this.breakers.fire(host, async () => {
        const r = await this.http.post(p.url, p.body, { ...p.headers, ...signatureHeaders(p.keys, p.webhookId, p.body) }, target);
        if (isHostFailure(r)) throw new HostFailure(r);
        return r;
      });
    } finally {
      release();
    }
    if (fired.rejected) return { kind: 'wait', reason: 'breaker_open', delayMs: fired.retryInMs + Math.round(Math.random() * 1000) };
    return { kind: 'attempted', result: fired.value };
  }
}
