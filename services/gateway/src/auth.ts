// HTTP Basic authentication against the applications service, with a short cache of verified
// credentials (so the slow KDF is not on the hot path) and a per-username lockout after failures.
// Verifications (each a full KDF on the applications service) are bounded: a few at a time per
// replica with a short queue (503 beyond it), and a per-client-address budget of failed ones (429).
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@switchboard/errors';
import type { Counter } from '@switchboard/observability';
import type { TraceContext } from '@switchboard/observability/tracing';
import type { AccountsClient } from '@switchboard/proto';
import { BoundedMap } from './bounded-map.ts';
import { RateLimiter, type Limiter } from './rate-limit.ts';

export interface Principal {
  accountId: string;
  username: string;
}

interface CacheEntry {
  digest: Buffer;
  principal: Principal;
  /** Until then requests with this credential are answered without asking the applications service. */
  expires: number;
  /** From then on, a request answered from the cache also starts a re-verification in the background. */
  refreshAt: number;
  /** Until then this credential is re-verified even while the username is locked out. */
  knownGoodUntil: number;
}

/** The request a verification is made for: its id and its trace, passed to the verifying call. */
interface VerifyCall {
  requestId: string;
  trace?: TraceContext;
}

interface FailureEntry {
  count: number;
  lockedUntil: number;
}

export interface AuthOptions {
  cacheTtlMs: number;
  maxFailures: number;
  lockoutMs: number;
  maxEntries?: number;
  /** Memory the failure table may take (usernames are attacker-chosen); default 16 MiB. */
  failureTableBytes?: number;
  /** Memory the cache of verified credentials, and the per-address table of failed logins, may take each; default 16 MiB. */
  cacheBytes?: number;
  /** Verifications in flight at a time (default 2) and waiting beyond them (default 16). */
  verifyConcurrency?: number;
  verifyQueue?: number;
  /** Failed verifications per second per client address (0 = no limit, the default), and the burst (default 20). */
  addressPerSecond?: number;
  addressBurst?: number;
  /** The budget of failed verifications per client address, when counted elsewhere (shared-limits.ts); else one in this process of addressPerSecond and addressBurst. */
  addressLimiter?: Limiter;
  now?: () => number;
  metrics?: { cacheHits: Counter; failures: Counter; shed?: Counter };
}

/** Thrown with the seconds a client should wait (the Retry-After header). */
function retryLater(code: 'rate_limited' | 'unavailable', message: string, retryAfter: number): AppError {
  return Object.assign(new AppError(code, message), { retryAfter: Math.max(1, retryAfter) });
}

/**
 * At most `concurrency` tasks at a time, `queue` more waiting (priority ones first and never
 * refused); beyond that a task is refused at once with 503 + Retry-After.
 */
export class VerifyGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
  ) {}

  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Whether a task that is not a priority one would be refused now. */
  get full(): boolean {
    return this.running >= this.concurrency && this.waiting.length >= this.queue;
  }

  async run<T>(task: () => Promise<T>, priority = false): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    else {
      if (!priority && this.waiting.length >= this.queue)
        throw retryLater('unavailable', 'too many logins are being verified; try again shortly', 1);
      // The slot is handed over by release(), never given up in between (no overtaking).
      await new Promise<void>((resolve) => (priority ? this.waiting.unshift(resolve) : this.waiting.push(resolve)));
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** Identifies one verification in flight: the username and the digest of the credentials. */
const inflightKey = (username: string, digest: Buffer) => `${username}\0${digest.toString('hex')}`;

const MAX_LOCKOUT_MS = 15 * 60 * 1000;
/**
 * How long a verified credential is remembered as the owner's: longer than any lockout, so a brute
 * force against a username never locks out the integration that keeps using the right password.
 */
const KNOWN_GOOD_MS = MAX_LOCKOUT_MS;

export class Authenticator {
  private readonly cache: BoundedMap<CacheEntry>;
  private readonly failures: BoundedMap<FailureEntry>;
  private readonly inflight = new Map<string, Promise<Principal>>();
  /** The fresh checks in flight (sign-in, password change, key creation), apart from the others. */
  private readonly freshInflight = new Map<string, Promise<Principal>>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly gate: VerifyGate;
  private readonly perAddress: Limiter;

  constructor(
    private readonly accounts: AccountsClient,
    private readonly opts: AuthOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.maxEntries = opts.maxEntries ?? 100_000;
    this.failures = new BoundedMap({
      maxEntries: this.maxEntries,
      maxBytes: opts.failureTableBytes ?? 16 * 1024 * 1024,
    });
    // An entry holds a 32-byte digest, the principal and three numbers besides its key.
    this.cache = new BoundedMap({ maxEntries: this.maxEntries, maxBytes: opts.cacheBytes ?? 16 * 1024 * 1024 }, 256);
    this.gate = new VerifyGate(opts.verifyConcurrency ?? 2, opts.verifyQueue ?? 16);
    this.perAddress =
      opts.addressLimiter ??
      new RateLimiter(opts.addressPerSecond ?? 0, this.now, opts.addressBurst ?? 20, opts.cacheBytes);
  }

  /** Entries and estimated bytes of the failure table (for tests and metrics). */
  get failureTable(): { entries: number; bytes: number } {
    return { entries: this.failures.size, bytes: this.failures.bytes };
  }

  /**
   * Counts the forgettings: a verification that began before one (a password change it may not have
   * seen) answers its caller but is not remembered.
   */
  private epoch = 0;

  /** Forgets the verified password of this username (it was changed). */
  forget(username: string): void {
    this.epoch++;
    this.cache.delete(username);
  }

  /** Estimated bytes of each of its tables (for metrics). */
  get tableBytes(): Record<'auth_cache' | 'auth_failures' | 'auth_address_failures', number> {
    return {
      auth_cache: this.cache.bytes,
      auth_failures: this.failures.bytes,
      auth_address_failures: this.perAddress.table.bytes,
    };
  }

  /**
   * The refusal (429) for a credential checked elsewhere (an API key not in its cache, a session
   * cookie) when the client address has no token left of its budget of failed logins.
   */
  checkAddress(address: string): void {
    const wait = this.perAddress.peek(address);
    if (wait <= 0) return;
    this.opts.metrics?.shed?.inc();
    throw retryLater(
      'rate_limited',
      'too many failed logins from this address; try again later',
      Math.ceil(wait / 1000),
    );
  }

  /**
   * A refused guess at a credential checked elsewhere (an API key, a session cookie): takes from the
   * address's budget. Resolves once it is counted (where the budget is counted for every replica,
   * after the lease), so the refusal is answered only then and the next guess sees the count.
   */
  async countGuess(address: string): Promise<void> {
    this.opts.metrics?.failures.inc();
    await this.perAddress.take(address);
  }

  /** Parses an Authorization header; throws 401 when absent or malformed. */
  static parse(header: string | undefined): { username: string; password: string } {
    const m = header ? /^Basic\s+([A-Za-z0-9+/=._~-]{1,4096})\s*$/i.exec(header) : null;
    if (!m?.[1]) throw new AppError('unauthenticated', 'HTTP Basic credentials are required');
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw new AppError('unauthenticated', 'malformed Basic credentials');
    return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }

  /**
   * The refusal this request would get from authenticate() whatever else it carries, or undefined:
   * its credentials are neither cached, nor the owner's known-good ones, nor being verified, and
   * either its address has no token left of its budget of failed logins (429) or the verifier's
   * queue is full (503). The gateway asks before any other work on the request (routing, body,
   * logging), so a flood of guesses costs little more than its parsing. Takes nothing: a request it
   * lets through goes on to authenticate().
   */
  shedBeforeWork(header: string | undefined, address: string): { status: 429 | 503; retryAfter: number } | undefined {
    const wait = this.perAddress.peek(address);
    if (wait <= 0 && !this.gate.full) return undefined;
    let username: string;
    let password: string;
    try {
      ({ username, password } = Authenticator.parse(header));
    } catch {
      return undefined; // no or malformed credentials: a plain 401, no guess
    }
    const digest = createHash('sha256').update(username).update('\0').update(password).digest();
    const cached = this.cache.peek(username);
    const now = this.now();
    if (
      cached !== undefined &&
      timingSafeEqual(cached.digest, digest) &&
      (cached.expires > now || cached.knownGoodUntil > now)
    )
      return undefined;
    if (this.inflight.has(inflightKey(username, digest))) return undefined;
    this.opts.metrics?.shed?.inc();
    return wait > 0 ? { status: 429, retryAfter: Math.max(1, Math.ceil(wait / 1000)) } : { status: 503, retryAfter: 1 };
  }

  /**
   * `address`: the client's address (clientAddress), for the limit on failed verifications; `trace`:
   * the request's trace, which a verification it starts continues.
   */
  async authenticate(
    header: string | undefined,
    requestId: string,
    address = '',
    trace?: TraceContext,
    opts: { fresh?: boolean } = {},
  ): Promise<Principal> {
    return this.authenticatePair(Authenticator.parse(header), requestId, address, trace, opts);
  }

  /**
   * authenticate() with the username and password as given (browser sign-in, the password change),
   * never encoded as Basic: a `:` in the username stays part of the username. `fresh`: the password
   * is checked now whatever the cache holds (a sign-in that hands out a new credential, or a
   * password change), under the lockout, the address budget and the verifier's queue like a guess.
   */
  async authenticatePair(
    { username, password }: { username: string; password: string },
    requestId: string,
    address = '',
    trace?: TraceContext,
    { fresh = false }: { fresh?: boolean } = {},
  ): Promise<Principal> {
    const digest = createHash('sha256').update(username).update('\0').update(password).digest();
    const now = this.now();
    const cached = fresh ? undefined : this.cache.get(username);
    const matches = cached !== undefined && timingSafeEqual(cached.digest, digest);
    if (matches && cached.expires > now) {
      this.opts.metrics?.cacheHits.inc();
      // Refresh ahead: a busy credential is verified again before its entry expires, so its requests
      // never all wait on the slow KDF at once (a latency spike every TTL). Nothing is served past
      // `expires`; a refresh that is refused forgets the entry (verify), one that fails otherwise
      // leaves it to expire.
      if (now >= cached.refreshAt) {
        cached.refreshAt = cached.expires;
        this.verifyOnce(username, password, digest, { requestId, trace }, true).catch(() => undefined);
      }
      return cached.principal;
    }
    // During a lockout only the credential last verified for this username goes on to verification
    // (it still is verified: a changed password or a deleted account is honoured). Presenting it
    // takes the password, so the lockout keeps slowing every guess down.
    const knownGood = matches && cached.knownGoodUntil > now;
    const failure = this.failures.get(username);
    if (!knownGood && failure && failure.lockedUntil > now) {
      this.opts.metrics?.failures.inc();
      const retryAfter = Math.ceil((failure.lockedUntil - now) / 1000);
      throw retryLater(
        'rate_limited',
        `too many failed logins for this user; try again in ${retryAfter} s`,
        retryAfter,
      );
    }
    if (knownGood) return this.verifyOnce(username, password, digest, { requestId, trace }, true);
    // A request whose credentials are being verified already waits for that verification: it
    // starts none, so it takes nothing of the address's budget (an integration's first burst of
    // concurrent requests is one verification, not one guess per request).
    // A fresh check joins only another fresh one (begun after this request arrived, so just as fresh).
    const joining = (fresh ? this.freshInflight : this.inflight).get(inflightKey(username, digest));
    if (joining) return joining;
    // Every verification takes a token of the client address's budget and a success gives it back:
    // only failed guesses use it up, and a flood of them is refused before it reaches the KDF.
    const taken = this.perAddress.take(address);
    const wait = typeof taken === 'number' ? taken : await taken;
    if (typeof taken !== 'number') {
      // The budget is counted for every replica (shared-limits.ts) and this request waited for a
      // lease: a verification of the same credentials that began meanwhile is joined instead.
      const began = (fresh ? this.freshInflight : this.inflight).get(inflightKey(username, digest));
      if (began) {
        if (wait <= 0) this.perAddress.refund(address);
        return began;
      }
    }
    if (wait > 0) {
      this.opts.metrics?.shed?.inc();
      throw retryLater(
        'rate_limited',
        'too many failed logins from this address; try again later',
        Math.ceil(wait / 1000),
      );
    }
    const principal = this.verifyOnce(username, password, digest, { requestId, trace }, false, fresh);
    // Only a refused password keeps the token: a verification that could not be made (the
    // accounts service or its database away, a full verifier) is no failed login.
    principal.then(
      () => this.perAddress.refund(address),
      (err: unknown) => {
        if (!(err instanceof AppError && err.code === 'unauthenticated')) this.perAddress.refund(address);
      },
    );
    return principal;
  }

  /** Concurrent requests with the same credentials (and a refresh ahead) share one verification. */
  private verifyOnce(
    username: string,
    password: string,
    digest: Buffer,
    call: VerifyCall,
    priority: boolean,
    /** A fresh check: shared only with other fresh checks, never with a refresh or a cached-path verification. */
    alone = false,
  ): Promise<Principal> {
    const key = inflightKey(username, digest);
    const inflight = alone ? this.freshInflight : this.inflight;
    let pending = inflight.get(key);
    if (!pending) {
      // The owner's verified credential (a refresh, or presented during a lockout) goes first and is
      // never refused for a full queue: a flood of guesses must not lock the owner out.
      pending = this.gate
        .run(() => this.verify(username, password, digest, call, priority), priority)
        .catch((err: unknown) => {
          if (err instanceof AppError && err.code === 'unavailable' && (err as { retryAfter?: number }).retryAfter)
            this.opts.metrics?.shed?.inc();
          throw err;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  }

  private async verify(
    username: string,
    password: string,
    digest: Buffer,
    call: VerifyCall,
    priority: boolean,
  ): Promise<Principal> {
    const epoch = this.epoch;
    try {
      // The owner's credential also goes first at the applications service's KDF (priority).
      const res = await this.accounts.verifyCredentials({ username, password, priority }, call);
      const principal = { accountId: res.account!.id, username: res.account!.username };
      // A success resets the failure count, but not a lockout in force: the owner getting through
      // during a brute force must not hand the attacker a fresh set of guesses.
      if (!((this.failures.peek(username)?.lockedUntil ?? 0) > this.now())) this.failures.delete(username);
      if (this.opts.cacheTtlMs > 0 && epoch === this.epoch) {
        const now = this.now();
        const ttl = this.opts.cacheTtlMs;
        this.cache.set(username, {
          digest,
          principal,
          expires: now + ttl,
          refreshAt: now + Math.floor((ttl * 2) / 3),
          knownGoodUntil: now + KNOWN_GOOD_MS,
        });
      }
      return principal;
    } catch (err) {
      if (err instanceof AppError && err.code === 'unauthenticated') {
        this.opts.metrics?.failures.inc();
        this.recordFailure(username);
        // A wrong guess must not evict the owner's verified credential, or a brute force would lock the
        // owner's running integration out (docs/api.md#authentication); but once that credential itself
        // is refused (password changed, account gone) it is forgotten.
        const cached = this.cache.get(username);
        if (cached && timingSafeEqual(cached.digest, digest)) this.cache.delete(username);
        throw new AppError('unauthenticated', 'invalid credentials');
      }
      throw err;
    }
  }

  private recordFailure(username: string): void {
    const entry = this.failures.get(username) ?? { count: 0, lockedUntil: 0 };
    entry.count += 1;
    if (entry.count >= this.opts.maxFailures) {
      const exponent = Math.min(entry.count - this.opts.maxFailures, 10);
      entry.lockedUntil = this.now() + Math.min(this.opts.lockoutMs * 2 ** exponent, MAX_LOCKOUT_MS);
    }
    this.failures.set(username, entry);
  }
}
