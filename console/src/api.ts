// The API client of the console: same-origin fetches that the __Host-sb_session cookie authenticates (the
// browser adds the Origin a write needs), problem+json answers turned into ApiError, and a 401
// reported to the app, which shows the sign-in page and then returns to the page.

export interface FieldProblem {
  field: string;
  message: string;
}

/** An API problem (RFC 9457): `message` to show, `fields` to show beside the fields they name. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
  }
}

let unauthenticated: (expired: boolean) => void = () => {};
/** Whether a call of this page load was authenticated: a 401 after one means the session ended. */
let hadSession = false;

/** Called on every 401 (except the sign-in's own): the session ended (`expired`) or never was. */
export function onUnauthenticated(handler: (expired: boolean) => void): void {
  unauthenticated = handler;
}

interface Problem {
  title?: string;
  detail?: string;
  code?: string;
  errors?: FieldProblem[];
}

async function problemOf(res: Response): Promise<ApiError> {
  let p: Problem = {};
  if (/json/.test(res.headers.get('content-type') ?? '')) p = (await res.json().catch(() => ({}))) as Problem;
  const message =
    p.detail ??
    p.title ??
    (res.status >= 500 ? `the server failed (${res.status}); try again` : `request failed (${res.status})`);
  return new ApiError(res.status, message, p.code ?? String(res.status), p.errors ?? []);
}

export interface Answer<T> {
  body: T;
  /** The `Link: rel="next"` of a list page, as a path. */
  next: string | undefined;
}

/** One API call; `body` is sent as JSON. Throws ApiError for a problem or when the network fails. */
export async function call<T>(method: string, path: string, body?: unknown, signIn = false): Promise<Answer<T>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch {
    throw new ApiError(0, 'the server could not be reached; check the connection and try again', 'network');
  }
  if (!res.ok) {
    const err = await problemOf(res);
    if (res.status === 401 && !signIn) {
      unauthenticated(hadSession);
      hadSession = false;
    }
    throw err;
  }
  if (!signIn) hadSession = true;
  const link = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '');
  const next = link ? new URL(link[1]!, location.href).pathname + new URL(link[1]!, location.href).search : undefined;
  const text = res.status === 204 ? '' : await res.text();
  return { body: (text ? JSON.parse(text) : undefined) as T, next };
}

export const api = {
  get: async <T>(path: string) => (await call<T>('GET', path)).body,
  post: async <T>(path: string, body?: unknown) => (await call<T>('POST', path, body)).body,
  put: async <T>(path: string, body?: unknown) => (await call<T>('PUT', path, body)).body,
  delete: async <T>(path: string) => (await call<T>('DELETE', path)).body,
};

/** Every item of a paged list, following its `Link: rel="next"` pages. */
export async function listAll<T>(path: string): Promise<T[]> {
  const items: T[] = [];
  let next: string | undefined = path;
  while (next) {
    const page: Answer<T[]> = await call<T[]>('GET', next);
    items.push(...page.body);
    next = page.next;
  }
  return items;
}

export interface User {
  id: string;
  username: string;
}

export interface Session {
  user: User;
  expiresAt: string;
}

export async function signIn(username: string, password: string): Promise<Session> {
  return (await call<Session>('POST', '/v1/console/session', { username, password }, true)).body;
}

/** The browser's session, or undefined when it has none (no 401: nothing logged). */
export async function currentSession(): Promise<Session | null> {
  return (await call<Session | undefined>('GET', '/v1/console/session', undefined, true)).body ?? null;
}

export async function signOut(): Promise<void> {
  await call('DELETE', '/v1/console/session', undefined, true);
}
