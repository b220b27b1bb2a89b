// The leanest one-process server a user would write instead of the split system, for `npm run
// bench -- api`: node:http, no framework, one prepared statement per request (named, so each pool
// connection parses it once), the same Basic auth with the same verified-credentials cache as the
// other baseline (./auth.ts), the same JSON; no batching. Routes: GET /v1/applications/:id, GET
// /v1/applications, POST /v1/applications.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { type ApplicationRow, applicationJson } from './applications';
import { basicAuth } from './auth';

const port = Number(process.env.PORT ?? 8098);
const base = process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const accountOf = basicAuth(pool);

const COLUMNS = 'id, account_id, name, voice_url, messaging_url, environment_id, api_type';
type Row = ApplicationRow;
const toJson = (a: Row) => applicationJson(base, a);

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...headers,
    })
    .end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 64 * 1024) throw new Error('too large');
    chunks.push(c as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const BY_ID = /^\/v1\/applications\/([^/?]+)\/?(?:\?.*)?$/;
const LIST = /^\/v1\/applications\/?(?:\?.*)?$/;

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const accountId = await accountOf(req.headers.authorization);
  if (!accountId) return send(res, 401);
  const url = req.url ?? '/';
  let m: RegExpExecArray | null;
  if (req.method === 'GET' && (m = BY_ID.exec(url))) {
    const { rows } = await pool.query<Row>({
      name: 'application_by_id',
      text: `select ${COLUMNS} from applications.applications where id = $1 and account_id = $2`,
      values: [decodeURIComponent(m[1]!), accountId],
    });
    return rows[0] ? send(res, 200, toJson(rows[0])) : send(res, 404, { code: 'not_found' });
  }
  if (req.method === 'GET' && LIST.test(url)) {
    const { rows } = await pool.query<Row>({
      name: 'applications_of_account',
      text: `select ${COLUMNS} from applications.applications where account_id = $1 order by seq limit 100`,
      values: [accountId],
    });
    return send(res, 200, rows.map(toJson));
  }
  if (req.method === 'POST' && LIST.test(url)) {
    const b = (await readJson(req).catch(() => undefined)) as
      | { name?: string; voiceUrl?: string; messagingUrl?: string }
      | undefined;
    if (typeof b?.name !== 'string' || (!b.voiceUrl && !b.messagingUrl))
      return send(res, 400, { code: 'invalid_request' });
    const id = randomBytes(12).toString('hex');
    await pool.query({
      name: 'create_application',
      text: `insert into applications.applications (id, account_id, name, voice_url, messaging_url, environment_id, api_type) values ($1, $2, $3, $4, $5, 2, 'scripting')`,
      values: [id, accountId, b.name, b.voiceUrl ?? null, b.messagingUrl ?? null],
    });
    const href = `${base}/rest/v1/applications/${id}`;
    return send(res, 200, { href }, { location: href });
  }
  send(res, 404, { code: 'not_found' });
}

createServer((req, res) => {
  handle(req, res).catch(() => {
    if (!res.headersSent) send(res, 500, { code: 'internal' });
    else res.destroy();
  });
}).listen(port, '127.0.0.1', () => process.stdout.write(`lean baseline listening on ${port}\n`));
process.on('SIGTERM', () => pool.end().finally(() => process.exit(0)));
