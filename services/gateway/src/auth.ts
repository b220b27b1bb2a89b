// HTTP Basic authentication against the applications service, with a short cache of verified
// credentials (so the slow KDF is not on the hot path) and a per-username lockout after failures.
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, type Counter } from '@switchboard/platform';
import type { AccountsClient } from '@switchboard/proto';

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

interface FailureEntry {
  count: number;
  lockedUntil: number;
}

export interface AuthOptions {
  cacheTtlMs: number;
  maxFailures: number;
  lockoutMs: number;
  maxEntries?: number;
  now?: () => number;
  metrics?: { cacheHits: Counter; failures: Counter };
}

const MAX_LOCKOUT_MS = 15 * 60 * 1000;
/**
 * How long a verified credential is remembered as the owner's: longer than any lockout, so a brute
 * force against a username never locks out the integration that keeps using the right password.
 */
const KNOWN_GOOD_MS = MAX_LOCKOUT_MS;

export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly failures = new Map<string, FailureEntry>();
  private readonly inflight = new Map<string, Promise<Principal>>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(
    private readonly accounts: AccountsClient,
    private readonly opts: AuthOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.maxEntries = opts.maxEntries ?? 100_000;
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

  async authenticate(header: string | undefined, requestId: string): Promise<Principal> {
    const { username, password } = Authenticator.parse(header);
    const digest = createHash('sha256').update(username).update('\0').update(password).digest();
    const now = this.now();
    const cached = this.cache.get(username);
    const matches = cached !== undefined && timingSafeEqual(cached.digest, digest);
    if (matches && cached.expires > now) {
      this.opts.metrics?.cacheHits.inc();
      // Refresh ahead: a busy credential is verified again before its entry expires, so its requests
      // never all wait on the slow KDF at once (a latency spike every TTL). Nothing is served past
      // `expires`; a refresh that is refused forgets the entry (verify), one that fails otherwise
      // leaves it to expire.
      if (now >= cached.refreshAt) {
        cached.refreshAt = cached.expires;
        this.verifyOnce(username, password, digest, requestId).catch(() => undefined);
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
      throw Object.assign(new AppError('rate_limited', `too many failed logins for this user; try again in ${retryAfter} s`), { retryAfter });
    }
    return this.verifyOnce(username, password, digest, requestId);
  }

  /** Concurrent requests with the same credentials (and a refresh ahead) share one verification. */
  private verifyOnce(username: string, password: string, digest: Buffer, requestId: string): Promise<Principal> {
    const key = `${username}\0${digest.toString('hex')}`;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.verify(username, password, digest, requestId).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async verify(username: string, password: string, digest: Buffer, requestId: string): Promise<Principal> {
    try {
      const res = await this.accounts.verifyCredentials({ username, password }, { requestId });
      const principal = { accountId: res.account!.id, username: res.account!.username };
      // A success resets the failure count, but not a lockout in force: the owner getting through
      // during a brute force must not hand the attacker a fresh set of guesses.
      if (!((this.failures.get(username)?.lockedUntil ?? 0) > this.now())) this.failures.delete(username);
      if (this.opts.cacheTtlMs > 0) {
        this.bound(this.cache);
        const now = this.now();
        const ttl = this.opts.cacheTtlMs;
        this.cache.set(username, { digest, principal, expires: now + ttl, refreshAt: now + Math.floor((ttl * 2) / 3), knownGoodUntil: now + KNOWN_GOOD_MS });
      }
      return principal;
    } catch (err) {
      if (err instanceof AppError && err.code === 'unauthenticated') {
        this.opts.metrics?.failures.inc();
        this.recordFailure(username);
        // A wrong guess must not evict the owner's verified credential, or a brute force would lock the
        // owner's running integration out (README, Authentication); but once that credential itself
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
    this.bound(this.failures);
    this.failures.set(username, entry);
  }

  private bound(map: Map<string, unknown>): void {
    if (map.size < this.maxEntries) return;
    // Maps iterate in insertion order: drop the oldest tenth.
    let n = Math.ceil(this.maxEntries / 10);
    for (const k of map.keys()) {
      map.delete(k);
      if (--n <= 0) break;
    }
  }
}
