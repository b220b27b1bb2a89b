// Verification of API keys: one gRPC call to the applications service (a keyed hash and an index
// lookup there; calls made together leave as one batch), optionally remembered for a short while.
// A revoked key is forgotten by every gateway as soon as the revocation is announced
// (credentials.revoked on NATS, followed by revocations.ts); the cache's lifetime bounds a notice
// that was lost, and is at most a minute, so lastUsedAt (recorded by the verifications) stays
// accurate to a minute. The replica that answers a revocation forgets the key before answering, and
// a verification that was under way meanwhile is not remembered.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { AppError } from '@switchboard/errors';
import type { ClientCallOptions } from '@switchboard/rpc';
import type { ApiKeysClient } from '@switchboard/proto';
import type { VerifyApiKeyResponse__Output } from '@switchboard/proto/generated/switchboard/applications/v1/VerifyApiKeyResponse';
import type { Principal } from '../auth.ts';
import type { Credential } from './credential.ts';

export interface KeyPrincipal {
  principal: Principal;
  credential: Credential;
}

interface Entry extends KeyPrincipal {
  expires: number;
}

/** The account and credential of a key the applications service verified (its VerifyApiKey answer). */
export function keyPrincipal(res: VerifyApiKeyResponse__Output): KeyPrincipal {
  const k = res.apiKey!;
  return {
    principal: { accountId: k.accountId, username: res.username },
    credential: { type: 'key', id: k.id, name: k.name, scope: k.scope === 'read' ? 'read' : 'full' },
  };
}

export interface ApiKeyVerifierOptions {
  /** How long a verified key is remembered, in ms (0: every request asks the applications service). */
  cacheTtlMs: number;
  maxEntries?: number;
  now?: () => number;
}

export class ApiKeyVerifier {
  /** By the SHA-256 of the key (no key is kept in clear); least recently used dropped first. */
  private readonly cache: LRUCache<string, Entry>;
  private readonly now: () => number;
  /** Whether revocations are being followed (revocations.ts): without them no key is remembered. */
  private following = false;
  /**
   * Counts the forgettings: a verification that began before one (a revocation it may not have
   * seen) answers its caller but is not remembered.
   */
  private epoch = 0;

  constructor(
    private readonly keys: ApiKeysClient,
    private readonly opts: ApiKeyVerifierOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.cache = new LRUCache({ max: opts.maxEntries ?? 10_000 });
  }

  /** The key's account and credential; 401 for an unknown or revoked key. */
  async verify(key: string, call: Pick<ClientCallOptions, 'requestId' | 'trace'>): Promise<KeyPrincipal> {
    const ttl = this.following ? this.opts.cacheTtlMs : 0;
    const digest = ttl > 0 ? digestOf(key) : '';
    if (ttl > 0) {
      const hit = this.cache.get(digest);
      if (hit && hit.expires > this.now()) return hit;
      if (hit) this.cache.delete(digest);
    }
    const epoch = this.epoch;
    let res: Awaited<ReturnType<ApiKeysClient['verifyApiKey']>>;
    try {
      res = await this.keys.verifyApiKey({ key }, call);
    } catch (err) {
      if (err instanceof AppError && err.code === 'unauthenticated')
        throw new AppError('unauthenticated', 'invalid or revoked API key');
      throw err;
    }
    const verified = keyPrincipal(res);
    if (ttl > 0 && epoch === this.epoch) this.cache.set(digest, { ...verified, expires: this.now() + ttl });
    return verified;
  }

  /** Whether this key is remembered as verified (a request with it is no guess). */
  knows(key: string): boolean {
    if (!this.following || this.opts.cacheTtlMs <= 0) return false;
    const hit = this.cache.peek(digestOf(key));
    return hit !== undefined && hit.expires > this.now();
  }

  /** Forgets keys: these ids, or every key of the account when no ids are given. */
  forget(accountId: string, keyIds?: readonly string[]): void {
    this.epoch++;
    const ids = keyIds ? new Set(keyIds) : undefined;
    for (const [digest, e] of this.cache.entries()) {
      if (e.principal.accountId === accountId && (!ids || ids.has(e.credential.id))) this.cache.delete(digest);
    }
  }

  /**
   * Whether revocation notices reach this gateway. Verified keys are remembered only while they do;
   * any change forgets every key (notices may have been missed meanwhile).
   */
  setFollowing(following: boolean): void {
    this.following = following;
    this.epoch++;
    this.cache.clear();
  }

  get size(): number {
    return this.cache.size;
  }
}

const digestOf = (key: string) => createHash('sha256').update(key).digest('base64');
