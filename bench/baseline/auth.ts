// The baselines' Basic auth, as the gateway's verified-credentials cache does it: a credential
// verified (scrypt, the stored hash's parameters) is remembered for 30 s by the SHA-256 of
// username and password; concurrent verifications of one credential are shared, and a busy
// credential is verified again in the background in the last third of its TTL (refresh ahead).
import { createHash, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';

function scrypt(password: string, salt: Buffer, len: number, o: { N: number; r: number; p: number }): Promise<Buffer> {
  // As the applications service: OpenSSL needs 128*r*(N+p+2) bytes (128 MiB at N=2^17, r=8).
  const maxmem = 128 * o.r * (o.N + o.p + 2) + 1024 * 1024;
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, len, { ...o, maxmem }, (e, k) => (e ? reject(e) : resolve(k))),
  );
}

/** The account id of an `Authorization: Basic` header, or undefined (401). */
export function basicAuth(pool: pg.Pool): (authorization: string | undefined) => Promise<string | undefined> {
  const cache = new Map<string, { digest: Buffer; accountId: string; expires: number; refreshAt: number }>();
  const inflight = new Map<string, Promise<string | undefined>>();

  async function verify(username: string, password: string, digest: Buffer): Promise<string | undefined> {
    const { rows } = await pool.query('select id, password_hash from applications.accounts where username = $1', [
      username,
    ]);
    const row = rows[0] as { id: string; password_hash: string } | undefined;
    const [, n, r, p, salt, key] = (row?.password_hash ?? 'scrypt$16384$8$1$AA==$AA==').split('$');
    const expected = Buffer.from(key!, 'base64');
    const got = await scrypt(password, Buffer.from(salt!, 'base64'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    if (!row || !timingSafeEqual(got, expected)) return undefined;
    const now = Date.now();
    cache.set(username, { digest, accountId: row.id, expires: now + 30_000, refreshAt: now + 20_000 });
    return row.id;
  }

  return async (authorization) => {
    const m = /^Basic\s+(.+)$/i.exec(authorization ?? '');
    const decoded = m?.[1] ? Buffer.from(m[1], 'base64').toString('utf8') : '';
    const i = decoded.indexOf(':');
    if (i <= 0) return undefined;
    const username = decoded.slice(0, i);
    const password = decoded.slice(i + 1);
    const digest = createHash('sha256').update(username).update('\0').update(password).digest();
    const hit = cache.get(username);
    const key = `${username}\0${digest.toString('hex')}`;
    const verifyOnce = () => {
      let pending = inflight.get(key);
      if (!pending) {
        pending = verify(username, password, digest).finally(() => inflight.delete(key));
        inflight.set(key, pending);
      }
      return pending;
    };
    const now = Date.now();
    if (hit && hit.expires > now && timingSafeEqual(hit.digest, digest)) {
      if (now >= hit.refreshAt) {
        hit.refreshAt = hit.expires;
        verifyOnce().catch(() => undefined);
      }
      return hit.accountId;
    }
    return verifyOnce();
  };
}
