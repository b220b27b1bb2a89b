// The baseline of the API benchmarks: one Express 5 process that serves the same routes straight
// from Postgres (same tables, same JSON, same Basic auth with the same verified-credentials cache):
// applications and webhook subscriptions. bench/baseline/lean.ts is the leaner one of `api`.
import { randomBytes } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import pg from 'pg';
import { SecretBox } from '../../packages/security/src/secrets';
import type { SubscriptionRow } from '../../services/webhooks/src/subscriptions/repository';
import { type ApplicationRow, applicationJson } from './applications';
import { basicAuth } from './auth';

const port = Number(process.env.PORT ?? 8099);
const base = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
// Secrets are stored sealed (the tables refuse plaintext), with the stack's key, as the services do.
const box = SecretBox.fromText(process.env.SECRETS_KEY ?? '');
const accountOf = basicAuth(pool);

async function auth(req: Request, res: Response, next: NextFunction) {
  const accountId = await accountOf(req.headers.authorization);
  if (!accountId) return void res.status(401).end();
  res.locals.accountId = accountId;
  next();
}

type Row = ApplicationRow;
const toJson = (a: Row) => applicationJson(base, a);

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(auth);
app.use(express.json({ limit: 64 * 1024 }));
app.get('/v1/applications/:id', async (req, res) => {
  const { rows } = await pool.query('select * from applications.applications where id = $1 and account_id = $2', [
    req.params.id,
    res.locals.accountId,
  ]);
  if (!rows[0]) return void res.status(404).json({ code: 'not_found' });
  res.json(toJson(rows[0] as Row));
});
app.get('/v1/applications', async (_req, res) => {
  const { rows } = await pool.query(
    'select * from applications.applications where account_id = $1 order by seq limit 100',
    [res.locals.accountId],
  );
  res.json((rows as Row[]).map(toJson));
});
app.post('/v1/applications', async (req, res) => {
  const b = req.body as { name?: string; voiceUrl?: string; messagingUrl?: string };
  if (typeof b?.name !== 'string' || (!b.voiceUrl && !b.messagingUrl))
    return void res.status(400).json({ code: 'invalid_request' });
  const id = randomBytes(12).toString('hex');
  await pool.query(
    `insert into applications.applications (id, account_id, name, voice_url, messaging_url, environment_id, api_type) values ($1, $2, $3, $4, $5, 2, 'scripting')`,
    [id, res.locals.accountId, b.name, b.voiceUrl ?? null, b.messagingUrl ?? null],
  );
  res.setHeader('Location', `${base}/rest/v1/applications/${id}`);
  res.json({ href: `${base}/rest/v1/applications/${id}` });
});

// Webhook subscriptions: the webhooks schema's tables, the gateway's JSON (webhookJson).
type Sub = SubscriptionRow;
const subJson = (s: Sub) => ({
  href: `${base}/v1/webhooks/${s.id}`,
  id: s.id,
  ...(s.name !== null ? { name: s.name } : {}),
  event: s.event,
  resource: s.resource,
  targetUrl: s.target_url,
  ...(s.payload !== null ? { payload: s.payload } : {}),
  enabled: s.enabled,
  accountId: String(s.account_id),
  ...(s.application_id ? { applicationId: s.application_id } : {}),
  createdAt: s.created_at.toISOString(),
  updatedAt: s.updated_at.toISOString(),
  consecutiveFailures: s.consecutive_failures,
  lastAttemptAt: s.last_attempt_at ? s.last_attempt_at.toISOString() : null,
  lastStatus: s.last_status,
  disabledReason: s.disabled_reason,
});
const EVENTS = new Map(['smsdlr', 'cdrCreated', 'cdrRated'].map((e) => [e.toLowerCase(), e]));
const RESOURCES = ['call', 'sms', 'transcription'];
function resourceOf(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const items = v
    .split(',')
    .map((x) => x.trim().toLowerCase())
    .filter(Boolean);
  if (!items.length || items.some((i) => i !== 'all' && !RESOURCES.includes(i))) return undefined;
  return items.includes('all') ? 'all' : RESOURCES.filter((r) => items.includes(r)).join(',');
}
function urlOf(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length > 2048) return undefined;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? v : undefined;
  } catch {
    return undefined;
  }
}
app.get('/v1/webhooks', async (_req, res) => {
  const { rows } = await pool.query(
    'select * from webhooks.subscriptions where account_id = $1 and application_id is null order by seq limit 101',
    [res.locals.accountId],
  );
  res.json((rows as Sub[]).slice(0, 100).map(subJson));
});
app.get('/v1/webhooks/:id', async (req, res) => {
  const { rows } = await pool.query('select * from webhooks.subscriptions where id = $1 and account_id = $2', [
    req.params.id,
    res.locals.accountId,
  ]);
  if (!rows[0]) return void res.status(404).json({ code: 'not_found' });
  res.json(subJson(rows[0] as Sub));
});
// A plain insert (subscription and sealed secret in one statement): no limit check; the application must be the caller's.
const createSub = async (req: Request, res: Response) => {
  const b = (req.body ?? {}) as {
    event?: unknown;
    resource?: unknown;
    targetUrl?: unknown;
    name?: unknown;
    payload?: unknown;
    enabled?: unknown;
  };
  const event = typeof b.event === 'string' ? EVENTS.get(b.event.trim().toLowerCase()) : undefined;
  const resource = resourceOf(b.resource);
  const targetUrl = urlOf(b.targetUrl);
  const payload = b.payload === undefined || b.payload === null ? null : b.payload;
  if (
    !event ||
    !resource ||
    !targetUrl ||
    (payload !== null && (typeof payload !== 'object' || Array.isArray(payload))) ||
    (b.name != null && typeof b.name !== 'string') ||
    (b.enabled != null && typeof b.enabled !== 'boolean')
  ) {
    return void res.status(400).json({ code: 'invalid_request' });
  }
  const appId = req.params.appId ?? null;
  const id = `wh_${randomBytes(12).toString('hex')}`;
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const { rowCount } = await pool.query(
    `with s as (
       insert into webhooks.subscriptions (id, account_id, application_id, name, event, resource, target_url, payload, enabled)
       select $1, $2, $3, $4, $5, $6, $7, $8, $9
       where $3::text is null or exists (select 1 from applications.applications where id = $3 and account_id = $2)
       returning id
     )
     insert into webhooks.subscription_secrets (subscription_id, secret) select id, $10 from s`,
    [
      id,
      res.locals.accountId,
      appId,
      (b.name as string | undefined) || null,
      event,
      resource,
      targetUrl,
      payload === null ? null : JSON.stringify(payload),
      b.enabled ?? true,
      box.seal(secret, id),
    ],
  );
  if (!rowCount) return void res.status(404).json({ code: 'not_found' });
  res.setHeader('Location', `${base}/v1/webhooks/${id}`);
  res.json({ href: `${base}/v1/webhooks/${id}`, secret });
};
app.post('/v1/webhooks', createSub);
app.post('/v1/applications/:appId/webhooks', createSub);

app.listen(port, '127.0.0.1', () => process.stdout.write(`baseline listening on ${port}\n`));
process.on('SIGTERM', () => pool.end().finally(() => process.exit(0)));
