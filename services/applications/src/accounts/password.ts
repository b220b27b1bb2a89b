// Passwords are stored as scrypt hashes (a slow, memory-hard KDF) with a per-password salt. Each
// hash describes itself, `scrypt$N$r$p$salt$key` (salt and key in base64), so hashes made with
// older parameters still verify; a login with one re-hashes the password (needsRehash).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { KdfThreads } from './kdf-threads.ts';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** OWASP's minimum for scrypt: N=2^17, r=8, p=1 (128 MiB and about 0.3-1 s a hash). */
export const DEFAULT_SCRYPT_N = 2 ** 17;
/** Stored parameters beyond these are not tried (a hash asking for more memory is rejected). */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;
const KEYLEN = 32;

let cost: ScryptCost = { N: DEFAULT_SCRYPT_N, r: 8, p: 1 };

/** Sets the N of new hashes (PASSWORD_SCRYPT_N); a power of two. */
export function setScryptN(n: number): void {
  if (!Number.isInteger(n) || n < 2 || n > MAX_N || (n & (n - 1)) !== 0)
    throw new Error(`scrypt N must be a power of two up to ${MAX_N}, not ${n}`);
  if (n !== cost.N) {
    cost = { ...cost, N: n };
    dummy = undefined;
  }
}

export function currentScryptCost(): ScryptCost {
  return { ...cost };
}

/**
 * The threads hashes are computed on (PASSWORD_KDF_THREADS; kdf-threads.ts): each hash holds about
 * 128*N*r bytes, so their number also bounds the memory the KDF takes.
 */
let threads = new KdfThreads();

/**
 * Sets how many hashes run at a time (PASSWORD_KDF_THREADS; undefined: one less than the cores, at
 * least 1), the nice value of their threads (PASSWORD_KDF_NICE) and how many may wait for one
 * (PASSWORD_KDF_QUEUE).
 */
export function setKdfThreads(n: number | undefined, nice = 0, queue = 64): void {
  const next = new KdfThreads(n, nice, queue);
  const [a, b] = [next.settings, threads.settings];
  if (a.size === b.size && a.nice === b.nice && a.queue === b.queue) return;
  threads.close();
  threads = next;
}

/** Starts the KDF threads and makes the dummy hash ahead of the first login (at service start). */
export function warmKdfThreads(): void {
  threads.warm();
  dummyHash().catch(() => (dummy = undefined));
}

function scrypt(
  password: string,
  salt: Buffer,
  keylen: number,
  c: ScryptCost,
  priority = false,
  signal?: AbortSignal,
): Promise<Buffer> {
  return threads.run({ password, salt, keylen, N: c.N, r: c.r, p: c.p }, priority, signal);
}

export async function hashPassword(password: string): Promise<string> {
  const c = cost;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, c);
  return `scrypt$${c.N}$${c.r}$${c.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface Parsed extends ScryptCost {
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): Parsed | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [, n, r, p, saltB64, keyB64] = parts as [string, string, string, string, string, string];
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  const int = (x: number, max: number) => Number.isInteger(x) && x >= 1 && x <= max;
  if (!int(N, MAX_N) || N < 2 || (N & (N - 1)) !== 0 || !int(R, MAX_R) || !int(P, MAX_P)) return undefined;
  const key = Buffer.from(keyB64, 'base64');
  if (key.length < 16) return undefined;
  return { N, r: R, p: P, salt: Buffer.from(saltB64, 'base64'), key };
}

/**
 * Constant-time check of a password against a stored hash, with the parameters stored in it.
 * `priority`: computed ahead of the other hashes waiting (kdf-threads.ts); `signal`: the caller's
 * call, whose end drops the check while it waits.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  priority = false,
  signal?: AbortSignal,
): Promise<boolean> {
  const h = parseHash(stored);
  if (!h) return false;
  const key = await scrypt(password, h.salt, h.key.length, h, priority, signal);
  return key.length === h.key.length && timingSafeEqual(key, h.key);
}

/** True when a stored hash was made with other parameters than new hashes get (re-hash it at the next login). */
export function needsRehash(stored: string): boolean {
  const h = parseHash(stored);
  return !h || h.N !== cost.N || h.r !== cost.r || h.p !== cost.p || h.key.length !== KEYLEN;
}

/** A hash of a random password: verifying against it costs as much as a real one (no user enumeration by timing). */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}
