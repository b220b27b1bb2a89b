// OAuth2 client credentials for receivers behind an authorization server (docs/api.md#delivery-settings):
// one token per (token URL, client, scope, secret), cached until shortly before it expires, fetched once
// however many attempts ask for it at the same time; a 401 from the receiver drops it, fetches a fresh
// one and makes the attempt once more. A token that cannot be had fails the attempt with its reason.
import { createHash } from 'node:crypto';
import type { AttemptResult } from './http-sender.ts';
import type { Sending, SignedPost, SignedSender } from './signed-sender.ts';
import type { SubscriptionSettings } from './subscription-settings.ts';

type OAuth2 = NonNullable<SubscriptionSettings['auth']>;

/** Tokens are used until this long before they expire. */
const EARLY_MS = 30_000;
/** A token answered without expires_in is kept this long. */
const DEFAULT_LIFETIME_MS = 300_000;
/** Token requests give up after this long. */
const TOKEN_TIMEOUT_MS = 10_000;

export interface TokenCacheOptions {
  /** Tokens held at most (the least recently used go first). */
  max: number;
  fetch?: typeof fetch;
}

/** Bounded cache of OAuth2 access tokens, one per credential; in-flight requests shared. */
export class TokenCache {
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();
  private readonly pending = new Map<string, Promise<string>>();
  /** Token requests made (metrics, tests). */
  requests = 0;

  constructor(private readonly opts: TokenCacheOptions) {}

  get size(): number {
    return this.tokens.size;
  }

  private keyOf(a: OAuth2): string {
    return createHash('sha256')
      .update(JSON.stringify([a.tokenUrl, a.clientId, a.scope ?? '', a.clientSecret]))
      .digest('base64url');
  }

  /** A valid token for these credentials: the cached one, or a fresh one. Throws with the reason. */
  get(a: OAuth2): Promise<string> {
    const key = this.keyOf(a);
    const held = this.tokens.get(key);
    if (held && held.expiresAt > Date.now()) {
      // Most recently used last: the first entry is the one to evict.
      this.tokens.delete(key);
      this.tokens.set(key, held);
      return Promise.resolve(held.token);
    }
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const p = this.request(a)
      .then((t) => {
        this.tokens.delete(key);
        this.tokens.set(key, t);
        while (this.tokens.size > this.opts.max) this.tokens.delete(this.tokens.keys().next().value!);
        return t.token;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, p);
    return p;
  }

  /** Drops the cached token (the receiver refused it). */
  drop(a: OAuth2): void {
    this.tokens.delete(this.keyOf(a));
  }

  private async request(a: OAuth2): Promise<{ token: string; expiresAt: number }> {
    this.requests++;
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: a.clientId,
      client_secret: a.clientSecret,
    });
    if (a.scope) form.set('scope', a.scope);
    let res: Response;
    try {
      res = await (this.opts.fetch ?? fetch)(a.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form,
        redirect: 'manual',
        signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
      });
    } catch (err) {
      throw new Error(`token request failed: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (res.status !== 200) throw new Error(`token request answered ${res.status}`);
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new Error('token response is not JSON');
    }
    if (typeof body.access_token !== 'string' || body.access_token.length === 0)
      throw new Error('token response has no access_token');
    const lifetime =
      typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : DEFAULT_LIFETIME_MS;
    return {
      token: body.access_token,
      expiresAt: Date.now() + Math.max(0, lifetime - Math.min(EARLY_MS, lifetime / 2)),
    };
  }
}

const tokenFailure = (err: unknown): AttemptResult => ({
  kind: 'error',
  error: `oauth2: ${(err as Error).message}`,
  code: 'oauth2_token',
  durationMs: 0,
  timedOut: false,
  refused: false,
});

/**
 * Starts an attempt with the subscription's endpoint authentication: with OAuth2, the bearer token
 * in Authorization (a 401 answer drops it and the attempt is made once more with a fresh one).
 * Without settings of its own, the sender's start() as it is.
 */
export function startAuthenticated(
  sender: SignedSender,
  post: SignedPost,
  settings: SubscriptionSettings | undefined,
  tokens: TokenCache | undefined,
): Sending {
  const auth = settings?.auth;
  if (!auth || !tokens) return sender.start(post);
  const withToken = (token: string) =>
    sender.start({ ...post, headers: { ...post.headers, Authorization: `Bearer ${token}` } }).attempted;
  const attempted = (async () => {
    try {
      const first = await withToken(await tokens.get(auth));
      if (first.kind !== 'attempted' || first.result.kind !== 'response' || first.result.status !== 401) return first;
      tokens.drop(auth);
      return await withToken(await tokens.get(auth));
    } catch (err) {
      return { kind: 'attempted' as const, result: tokenFailure(err) };
    }
  })();
  return { attempted };
}
