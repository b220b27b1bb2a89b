// The API client of the console: openapi-fetch typed by the OpenAPI document (api/schema.gen.ts, `npm run
// api:types`), same-origin fetches that the __Host-sb_session cookie authenticates (the browser adds the
// Origin a write needs), problem+json answers turned into ApiError, and a 401 reported to the app, which
// shows the sign-in page and then returns to the page.
import createClient from 'openapi-fetch';
import type { components, paths } from './api/schema.gen.ts';

/** The bodies of the API, by their name in the OpenAPI document. */
export type Schemas = components['schemas'];

/** A problem's word about one field of the request. */
export type FieldProblem = NonNullable<Schemas['Problem']['errors']>[number];

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

/** The problem an answer describes; a body that is not one (a proxy's page) leaves it empty. */
async function problemOf(res: Response): Promise<ApiError> {
  let p: Partial<Schemas['Problem']> = {};
  if (/json/.test(res.headers.get('content-type') ?? '')) p = await res.json().catch(() => ({}));
  const message =
    p.detail ??
    p.title ??
    (res.status >= 500 ? `the server failed (${res.status}); try again` : `request failed (${res.status})`);
  return new ApiError(res.status, message, p.code ?? String(res.status), p.errors ?? []);
}

/** What the console's fetch does for every call: the network failure and every problem become an ApiError. */
function consoleFetch(signIn: boolean) {
  return async (request: Request): Promise<Response> => {
    let res: Response;
    try {
      res = await fetch(request);
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
    return res;
  };
}

const options = { credentials: 'same-origin', headers: { accept: 'application/json' } } as const;

/**
 * The API client, typed by the OpenAPI document (api/schema.gen.ts): `client.GET('/v1/applications/{id}',
 * { params: { path: { id } } })`. Path parameters are percent-encoded. A call resolves only with a
 * success (`data`); a problem rejects with an ApiError.
 */
export const client = createClient<paths>({ ...options, fetch: consoleFetch(false) });
/** The sign-in's own calls: a 401 there is an answer, not the end of a session. */
const signInClient = createClient<paths>({ ...options, fetch: consoleFetch(true) });

interface Result<T> {
  data?: T;
  response: Response;
}

/** The body of a call's answer. */
export async function body<T>(call: Promise<Result<T>>): Promise<T> {
  return (await call).data as T;
}

export interface Answer<T> {
  body: T;
  /** The `cursor` of the `Link: rel="next"` of a list page. */
  next: string | undefined;
}

/** A page of a list: its items and the cursor of the next page, if any. */
export async function page<T>(call: Promise<Result<T[]>>): Promise<Answer<T[]>> {
  const { data, response } = await call;
  const link = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '');
  const next = link ? (new URL(link[1]!, location.href).searchParams.get('cursor') ?? undefined) : undefined;
  return { body: data ?? [], next };
}

/** Every item of a paged list: `list(cursor)` asks for one page, `list(undefined)` the first. */
export async function listAll<T>(list: (cursor: string | undefined) => Promise<Result<T[]>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const p = await page(list(cursor));
    items.push(...p.body);
    cursor = p.next;
  } while (cursor);
  return items;
}

export type Session = Schemas['ConsoleSession'];

export async function signIn(username: string, password: string): Promise<Session> {
  return body(signInClient.POST('/v1/console/session', { body: { username, password } }));
}

/** The browser's session, or null when it has none (no 401: nothing logged). */
export async function currentSession(): Promise<Session | null> {
  return (await body(signInClient.GET('/v1/console/session'))) ?? null;
}

export async function signOut(): Promise<void> {
  await signInClient.DELETE('/v1/console/session');
}

export type Address = Schemas['Address'];
export type Alert = Schemas['Alert'];
export type AlertTrigger = Schemas['AlertTrigger'];
export type ApiKey = Schemas['ApiKey'];
export type Application = Schemas['Application'];
export type AuditEvent = Schemas['AuditEvent'];
export type Delivery = Schemas['Delivery'];
export type DeliveryStats = Schemas['DeliveryStats'];
export type EventType = Schemas['EventType'];
export type Exchange = Schemas['Exchange'];
export type Recovery = Schemas['Recovery'];
export type RecoveryDryRun = Schemas['RecoveryDryRun'];
export type SessionRecord = Schemas['SessionRecord'];
export type SessionSummary = Schemas['SessionSummary'];
export type TestResult = Schemas['TestResult'];
export type Usage = Schemas['Usage'];
export type UsageTrigger = Schemas['UsageTrigger'];
export type Webhook = Schemas['Webhook'];

/** The parameters that are set: the forms' empty strings ("any") and undefined left out. */
export function given<T extends Record<string, string | number | undefined>>(
  params: T,
): { [K in keyof T]?: Exclude<T[K], '' | undefined> } {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '' && v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], '' | undefined>;
  };
}
