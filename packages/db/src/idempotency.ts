// Idempotency-Key for the API's POSTs, kept by the service that does the write. The gateway hashes
// the request (method, path, body) and passes key, hash and account in gRPC metadata; the owning
// service's GrpcServer runs the call through an IdempotencyStore: the first call with a key does the
// work and stores its answer; a later one with the same key and hash within the retention answers
// the stored answer without doing the work again; the same key with another hash is refused.
// Answers are stored sealed with the service's SECRETS_KEY (some carry a signing secret or a token),
// bound to their account and key; each account keeps at most `maxKeysPerAccount` keys.
import { z } from 'zod';
import { backoffMs, DAY_MS } from '@switchboard/config';
import { AppError } from '@switchboard/errors';
import { queryPrepared, type PooledClient } from './db.ts';
import type { SecretBox } from '@switchboard/security';

export const IDEMPOTENCY_KEY = 'idempotency-key';
export const IDEMPOTENCY_HASH = 'idempotency-hash';
export const IDEMPOTENCY_ACCOUNT = 'idempotency-account';

/** How long a key is remembered. */
export const IDEMPOTENCY_RETENTION_HOURS = 24;
/** A claim with no answer this old belongs to a process that died: another request may take it over. */
const STALE_CLAIM_SECONDS = 120;
/** How long a request waits for a concurrent one with the same key before answering 409. */
const WAIT_MS = 10_000;
/** Default of IDEMPOTENCY_KEYS_PER_ACCOUNT: keys one account keeps per service. */
export const IDEMPOTENCY_KEYS_PER_ACCOUNT_DEFAULT = 10_000;

/** Config field of the services that keep idempotency keys (spread into their zod schema). */
export const idempotencyFields = {
  IDEMPOTENCY_KEYS_PER_ACCOUNT: z.coerce
    .number()
    .int()
    .min(10)
    .max(10_000_000)
    .default(IDEMPOTENCY_KEYS_PER_ACCOUNT_DEFAULT)
    .describe(
      "`Idempotency-Key`s one account keeps in this service; a new key beyond it forgets the account's oldest answered ones.",
    ),
};

export interface IdempotencyOptions {
  /** Seals the stored answers (SECRETS_KEY); without it they are stored as JSON. */
  box?: SecretBox | undefined;
  /** Keys one account keeps; a new key beyond it evicts the account's oldest answered keys. */
  maxKeysPerAccount?: number;
  /** How long a day of the retention lasts (RETENTION_DAY_MS); keys are kept IDEMPOTENCY_RETENTION_HOURS of it. */
  retentionDayMs?: number;
}

/** The idempotency scope of one call, as the gateway sends it. */
export interface IdempotencyScope {
  accountId: string;
  key: string;
  hash: string;
}

interface Row {
  request_hash: string;
  response: unknown;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The polls of a key another request holds: about 75 ms, growing by half to 250 ms, spread by a third. */
const HELD_KEY_POLL = { firstMs: 75, maxMs: 250, factor: 1.5, spread: 1 / 3 };

export class IdempotencyStore {
  private readonly table: string;
  private readonly box: SecretBox | undefined;
  private readonly maxKeys: number;
  private readonly retentionSeconds: number;

  constructor(
    private readonly pool: PooledClient,
    schema: string,
    opts: IdempotencyOptions = {},
  ) {
    this.table = `"${schema}".idempotency_keys`;
    this.box = opts.box;
    this.maxKeys = opts.maxKeysPerAccount ?? IDEMPOTENCY_KEYS_PER_ACCOUNT_DEFAULT;
    // A whole number of seconds, written into the statement text (the statements stay prepared once).
    this.retentionSeconds = Math.max(
      1,
      Math.round(((opts.retentionDayMs ?? DAY_MS) * IDEMPOTENCY_RETENTION_HOURS) / 24 / 1000),
    );
  }

  /** The associated data of a stored answer: a sealed answer opens only for its own account and key. */
  private static owner(scope: IdempotencyScope): string {
    return `idempotency:${scope.accountId}:${scope.key}`;
  }

  private seal(scope: IdempotencyScope, answer: unknown): string {
    const json = JSON.stringify({ answer: answer ?? null });
    return this.box ? JSON.stringify({ sealed: this.box.seal(json, IdempotencyStore.owner(scope)) }) : json;
  }

  /** The stored answer: sealed, or a plain `{answer}` stored without a key. */
  private open<T>(scope: IdempotencyScope, response: unknown): T {
    const r = response as { sealed?: string; answer?: T };
    if (typeof r.sealed !== 'string') return r.answer as T;
    if (!this.box) throw new AppError('internal', 'a sealed idempotent answer needs SECRETS_KEY');
    return (JSON.parse(this.box.open(r.sealed, IdempotencyStore.owner(scope))) as { answer: T }).answer;
  }

  /**
   * Runs `work` once per (account, key): concurrent calls with the same key wait for the first and
   * answer what it answered (409 `idempotency_in_progress` if it takes longer than the wait). A
   * call that fails stores nothing: its key can be used again.
   */
  async run<T>(scope: IdempotencyScope, method: string, work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    for (let attempt = 1; ; attempt++) {
      if (await this.claim(scope, method)) {
        let result: T;
        try {
          result = await work();
        } catch (err) {
          await this.release(scope).catch(() => undefined);
          throw err;
        }
        await queryPrepared(
          this.pool,
          `update ${this.table} set response = $3, completed_at = now() where account_id = $1 and key = $2`,
          [scope.accountId, scope.key, this.seal(scope, result)],
        );
        await this.evictBeyondCap(scope);
        return result;
      }
      const rows = await queryPrepared<Row>(
        this.pool,
        `select request_hash, response from ${this.table} where account_id = $1 and key = $2`,
        [scope.accountId, scope.key],
      );
      const row = rows[0];
      // The first request failed and released the key meanwhile: claim it again.
      if (!row) continue;
      if (row.request_hash !== scope.hash) {
        throw new AppError(
          'idempotency_key_reused',
          'this Idempotency-Key was used with a different request (method, path or body) in the last 24 hours',
        );
      }
      if (row.response !== null) return this.open<T>(scope, row.response);
      if (Date.now() >= deadline)
        throw new AppError(
          'idempotency_in_progress',
          'a request with this Idempotency-Key is still in progress; retry later',
        );
      await sleep(backoffMs(attempt, HELD_KEY_POLL));
    }
  }

  /** Takes the key: new, expired, or abandoned by a process that died. False when another request holds it. */
  private async claim(scope: IdempotencyScope, method: string): Promise<boolean> {
    const rows = await queryPrepared(
      this.pool,
      `insert into ${this.table} as k (account_id, key, request_hash, method) values ($1, $2, $3, $4)
       on conflict (account_id, key) do update set request_hash = excluded.request_hash, method = excluded.method,
         response = null, created_at = now(), completed_at = null
       where k.created_at < now() - make_interval(secs => ${this.retentionSeconds})
          or (k.response is null and k.created_at < now() - make_interval(secs => ${STALE_CLAIM_SECONDS}))
       returning 1`,
      [scope.accountId, scope.key, scope.hash, method],
    );
    return rows.length > 0;
  }

  /**
   * Keeps the account's newest `maxKeysPerAccount` keys: older answered ones are forgotten (a repeat
   * of one does the work again). Keys still running are never evicted.
   */
  private async evictBeyondCap(scope: IdempotencyScope): Promise<void> {
    await queryPrepared(
      this.pool,
      `delete from ${this.table} where account_id = $1 and response is not null and created_at < (
         select created_at from ${this.table} where account_id = $1 order by created_at desc offset $2 - 1 limit 1)`,
      [scope.accountId, this.maxKeys],
    );
  }

  private async release(scope: IdempotencyScope): Promise<void> {
    await queryPrepared(
      this.pool,
      `delete from ${this.table} where account_id = $1 and key = $2 and response is null`,
      [scope.accountId, scope.key],
    );
  }

  /** Deletes keys past the retention; returns how many. */
  async prune(): Promise<number> {
    const rows = await queryPrepared(
      this.pool,
      `delete from ${this.table} where created_at < now() - make_interval(secs => ${this.retentionSeconds}) returning 1`,
      [],
    );
    return rows.length;
  }
}
