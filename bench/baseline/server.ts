// The baseline of the API benchmarks: one Express 5 process that serves the same routes straight
// from Postgres (same tables, same JSON, same Basic auth with the same verified-credentials cache).
import { createHash, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import pg from 'pg';

const port = Number(process.env.PORT ?? 8099);
const base = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const cache = new Map<string, { digest: Buffer; accountId: string; expires: number }>();

function scrypt(password: string, salt: Buffer, len: number, o: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password, salt, len, { ...o, maxmem: 64 * 1024 * 1024 }, (e, k) => (e ? reject(e) : resolve(k))));
}

async function auth(req: Request, res: Response, next: NextFunction) {
  const m = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  const decoded = m?.[1] ? Buffer.from(m[1], 'base64').toString('utf8') : '';
  const i = decoded.indexOf(':');
  if (i <= 0) return void res.status(401).end();
  const username = decoded.slice(0, i);
  const password = decoded.slice(i + 1);
  const digest = createHash('sha256').update(username).update('\0').update(password).digest();
  const hit = cache.get(username);
  if (hit && hit.expires > Date.now() && timingSafeEqual(hit.digest, digest)) {
    res.locals.accountId = hit.accountId;
    return next();
  }
  const { rows } = await pool.query('select id, password_hash from applications.accounts where username = $1', [username]);
  const row = rows[0] as { id: string; password_hash: string } | undefined;
  const [, n, r, p, salt, key] = (row?.password_hash ?? 'scrypt$16384$8$1$AA==$AA==').split('$');
  const expected = Buffer.from(key!, 'base64');
  const got = await scrypt(password, Buffer.from(salt!, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  if (!row || !timingSafeEqual(got, expected)) return void res.status(401).end();
  cache.set(username, { digest, accountId: row.id, expires: Date.now() + 30_000 });
  res.locals.accountId = row.id;
  next();
}

type Row = { id: string; account_id: string; name: string; voice_url: string | null; messaging_url: string | null; environment_id: string; api_type: string; seq: string };
const toJson = (a: Row) => ({
  href: `${base}/rest/v1/applications/${a.id}`,
  id: a.id,
  name: a.name,
  ...(a.voice_url ? { voiceUrl: a.voice_url } : {}),
  ...(a.messaging_url ? { messagingUrl: a.messaging_url } : {}),
  environment: `${base}/rest/v1/environments/${a.environment_id}`,
  apiType: a.api_type,
  platform: a.api_type,
  userId: Number(a.account_id),
  user: `${base}/rest/v1/users/${a.account_id}`,
});

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(auth);
app.use(express.json({ limit: 64 * 1024 }));
app.get('/v1/applications/:id', async (req, res) => {
  const { rows } = await pool.query('select * from applications.applications where id = $1 and account_id = $2', [req.params.id, res.locals.accountId]);
  if (!rows[0]) return void res.status(404).json({ code: 'not_found' });
  res.json(toJson(rows[0] as Row));
});
app.get('/v1/applications', async (_req, res) => {
  const { rows } = await pool.query('select * from applications.applications where account_id = $1 order by seq limit 100', [res.locals.accountId]);
  res.json((rows as Row[]).map(toJson));
});
app.post('/v1/applications', async (req, res) => {
  const b = req.body as { name?: string; voiceUrl?: string; messagingUrl?: string };
  if (typeof b?.name !== 'string' || (!b.voiceUrl && !b.messagingUrl)) return void res.status(400).json({ code: 'invalid_request' });
  const id = randomBytes(12).toString('hex');
  await pool.query(
    `insert into applications.applications (id, account_id, name, voice_url, messaging_url, environment_id, api_type) values ($1, $2, $3, $4, $5, 2, 'scripting')`,
    [id, res.locals.accountId, b.name, b.voiceUrl ?? null, b.messagingUrl ?? null],
  );
  res.setHeader('Location', `${base}/rest/v1/applications/${id}`);
  res.json({ href: `${base}/rest/v1/applications/${id}` });
});

app.listen(port, '127.0.0.1', () => process.stdout.write(`baseline listening on ${port}\n`));
process.on('SIGTERM', () => pool.end().finally(() => process.exit(0)));
