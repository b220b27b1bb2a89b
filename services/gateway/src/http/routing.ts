// Route registration (405 with Allow), list and query parameters, and JSON answers: the helpers every
// route module uses.
import type { Request, RequestHandler, Response, Router } from 'express';
import { AppError } from '@switchboard/errors';
import { LIST_MAX, LIST_UNPAGED_MAX } from '@switchboard/contracts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Handler = (req: Request, res: Response) => Promise<void>;

/**
 * Registers the handlers of one path (with or without trailing slash: the router is not strict)
 * and answers 405 with `Allow` for every other method.
 */
export function route(router: Router, path: string, handlers: Partial<Record<Method, Handler>>): void {
  const r = router.route(path);
  const allowed = Object.keys(handlers) as Method[];
  for (const method of allowed) {
    const h = handlers[method]!;
    const wrapped: RequestHandler = (req, res) => h(req, res);
    if (method === 'GET') r.get(wrapped);
    else if (method === 'POST') r.post(wrapped);
    else if (method === 'PUT') r.put(wrapped);
    else r.delete(wrapped);
  }
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
  r.all((_req, res) => {
    res.setHeader('Allow', allow);
    throw new AppError('method_not_allowed', `allowed methods: ${allow}`);
  });
}

/** `?limit=` (1..LIST_MAX; undefined when not given) and `?cursor=` of a list request. */
function listParams(req: Request): { limit: number | undefined; cursor: string } {
  const q = req.query;
  let limit: number | undefined;
  if (q.limit !== undefined) {
    if (
      typeof q.limit !== 'string' ||
      !/^\d{1,4}$/.test(q.limit) ||
      Number(q.limit) < 1 ||
      Number(q.limit) > LIST_MAX
    ) {
      throw AppError.invalid([{ field: 'limit', message: `must be an integer between 1 and ${LIST_MAX}` }]);
    }
    limit = Number(q.limit);
  }
  let cursor = '';
  if (q.cursor !== undefined) {
    if (typeof q.cursor !== 'string' || q.cursor.length > 200)
      throw AppError.invalid([{ field: 'cursor', message: 'must be a cursor this API returned' }]);
    cursor = q.cursor;
  }
  return { limit, cursor };
}

export interface Page<T> {
  items: T[];
  nextCursor: string;
}

/**
 * The items of a list request. With `?limit`, the one page the service answers. Without it, the
 * whole list (Tropo clients never follow `Link`): pages of LIST_MAX until the end, up to
 * LIST_UNPAGED_MAX items. Either way a further page is announced with `Link: rel="next"`.
 */
export async function readList<T>(
  req: Request,
  res: Response,
  base: string,
  readPage: (limit: number, cursor: string) => Promise<Page<T>>,
): Promise<T[]> {
  const { limit, cursor } = listParams(req);
  if (limit !== undefined) {
    const page = await readPage(limit, cursor);
    setNextLink(req, res, base, page.nextCursor, limit);
    return page.items;
  }
  const items: T[] = [];
  let next = cursor;
  do {
    const page = await readPage(Math.min(LIST_MAX, LIST_UNPAGED_MAX - items.length), next);
    items.push(...page.items);
    next = page.nextCursor;
  } while (next && items.length < LIST_UNPAGED_MAX);
  setNextLink(req, res, base, next, undefined);
  return items;
}

/** Optional string query parameter; repeated or over-long values are a 400. */
export function queryString(req: Request, name: string): string {
  const v = req.query[name];
  if (v === undefined) return '';
  if (typeof v !== 'string' || v.length > 200)
    throw AppError.invalid([{ field: name, message: 'must be given once, as a short string' }]);
  return v;
}

/** Several single query parameters at once (queryString of each): `{name: value or ''}`. */
export function queryStrings<K extends string>(req: Request, names: readonly K[]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const name of names) out[name] = queryString(req, name);
  return out;
}

/** Announces the next page with an RFC 8288 Link header (with the request's `limit`, if it had one). */
function setNextLink(req: Request, res: Response, base: string, nextCursor: string, limit: number | undefined): void {
  if (!nextCursor) return;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query))
    if (k !== 'cursor' && k !== 'limit' && typeof v === 'string') params.set(k, v);
  if (limit !== undefined) params.set('limit', String(limit));
  params.set('cursor', nextCursor);
  res.setHeader('Link', `<${base}${req.baseUrl}${req.path}?${params.toString()}>; rel="next"`);
}

/**
 * Answers with a JSON body: the bytes and headers of Express's res.json (ETag is off), written
 * directly. res.json goes through res.send, which reads app settings, parses the Content-Type it
 * just set for its charset and checks freshness on every call: ~6% of the gateway's CPU per request.
 * HEAD gets the headers only (Node drops the body).
 */
export function sendJson(res: Response, body: unknown, status = 200): void {
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

/**
 * `{href, ...extra}` and a Location header: 200 for a create or an update
 * (docs/api-rules.md#compatibility), 202 for queued work whose href reads its progress.
 */
export function sendHref(
  res: Response,
  href: string,
  extra: Record<string, unknown> = {},
  status: 200 | 202 = 200,
): void {
  res.setHeader('Location', href);
  sendJson(res, { href, ...extra }, status);
}
