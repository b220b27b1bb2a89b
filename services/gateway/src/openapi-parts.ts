// The pieces of the OpenAPI document that the route declarations (http/declare.ts, http/*.ts) share,
// and openapi.ts with them: the problem answers, the common headers, parameters and body shapes.
import { LIST_MAX, LIST_UNPAGED_MAX } from '@switchboard/contracts';
import {
  ACCOUNT_SUBSCRIPTIONS_MAX,
  APPLICATION_SUBSCRIPTIONS_MAX,
  BODY_LIMIT_DEFAULT_BYTES,
  JSON_MAX_DEPTH,
} from './limits.ts';

export type Schema = Record<string, unknown>;
/** A query or header parameter object of an operation. */
export type Parameter = { name: string; in: 'query' | 'header'; schema: Schema; [key: string]: unknown };

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const problemResponse = (description: string, headers: Schema = {}): Schema => ({
  description,
  headers,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});
export const errors = {
  '400': problemResponse(
    `Invalid request: malformed JSON, JSON nested deeper than ${JSON_MAX_DEPTH} levels of arrays and objects, wrong types, missing or invalid fields.`,
  ),
  '401': problemResponse('No or bad credentials.', {
    'WWW-Authenticate': { schema: { type: 'string' }, description: 'Basic realm="switchboard"' },
  }),
  '403': problemResponse(
    "The credential may not do this: a `read` API key on anything but GET, or on a signing secret (`insufficient_scope`); a write from another site, whatever its credential (an `Origin` other than this API's, or `Sec-Fetch-Site: cross-site`), or a write with a browser session without this API's `Origin` (`forbidden`).",
  ),
  '404': problemResponse('Unknown id, or a resource of another account.'),
  '405': problemResponse('Method not allowed on this path.', { Allow: { schema: { type: 'string' } } }),
  '409': problemResponse(
    `A limit was reached (\`limit_exceeded\`: at most ${ACCOUNT_SUBSCRIPTIONS_MAX} account-level subscriptions per account and ${APPLICATION_SUBSCRIPTIONS_MAX} per application; at most \`APPLICATION_TOKENS_MAX\` session tokens per application, default 100) or the change conflicts (\`conflict\`), or a request with the same \`Idempotency-Key\` is still running after 10 s (\`idempotency_in_progress\`: retry later).`,
  ),
  '422': problemResponse(
    'The `Idempotency-Key` was used in the last 24 h with a different request (method, path or body): `idempotency_key_reused`.',
  ),
  '413': problemResponse(
    `Request body over the size limit (\`BODY_LIMIT_BYTES\`, default ${BODY_LIMIT_DEFAULT_BYTES / 1024} KiB).`,
  ),
  '415': problemResponse(
    'A POST/PUT body without Content-Type: application/json; a POST/PUT without a body may declare application/json or no Content-Type, nothing else.',
  ),
  '429': problemResponse(
    'Rate limited, locked out after failed logins, or too many failed logins from this client address.',
    { 'Retry-After': { schema: { type: 'string' } } },
  ),
  '500': problemResponse('Unexpected error; quote the X-Request-Id.'),
  '503': problemResponse(
    'A dependency is unavailable, too many logins are waiting to be verified, or the event store is full; retry. Nothing was half-written.',
    { 'Retry-After': { schema: { type: 'string' } } },
  ),
  '504': problemResponse('No dispatcher answered a test send in time (`timeout`); the test may still have been sent.'),
};
export type Status = keyof typeof errors;
export const pick = (...codes: Status[]) => Object.fromEntries(codes.map((c) => [c, errors[c]]));
/** The header of every answer that carries a secret, a key or a token. */
export const noStoreHeader = {
  'Cache-Control': {
    schema: { type: 'string', const: 'no-store' },
    description: 'Never cached: it carries a credential.',
  },
};
export const readErrors = pick('401', '403', '404', '405', '429', '500', '503');
export const writeErrors = pick('400', '401', '403', '404', '405', '409', '413', '415', '429', '500', '503');
export const idempotencyKeyParam: Parameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
  example: 'b3b9f5a0-5c1e-4d2e-9f0a-6a8c2b7d1e44',
  description:
    'Makes a retried POST safe: within 24 h, a request with the same key and the same method, path and body (JSON key order and spacing do not matter) is not done again; it answers what the first one answered (status, body, `Location`). ' +
    'A request that arrives while the first is still running waits for it (up to 10 s, then 409 `idempotency_in_progress`). The same key with a different request is a 422 `idempotency_key_reused`. ' +
    'Keys are per account and per service that does the write (applications; webhooks and their secrets). A request that failed (any 4xx or 5xx) is not remembered: its key can be sent again. 1 to 255 visible ASCII characters (else 400); a UUID is a good choice.',
};
export const json = (schema: Schema, description: string, headers: Schema = {}): Schema => ({
  description,
  headers,
  content: { 'application/json': { schema } },
});
export const listHeaders = {
  Link: { schema: { type: 'string' }, description: 'RFC 8288 link to the next page: <...>; rel="next"' },
};
export const hrefHeaders = { Location: { schema: { type: 'string', format: 'uri' } } };
export const listParams: Parameter[] = [
  {
    name: 'limit',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: LIST_MAX },
    description: `Items per page; a \`Link\` header leads to the next page. Without \`limit\` the answer holds the whole list, up to ${LIST_UNPAGED_MAX.toLocaleString('en-US')} items (then a \`Link\` header leads to the rest).`,
  },
  {
    name: 'cursor',
    in: 'query',
    schema: { type: 'string' },
    description: 'From the `Link` header of the previous page.',
  },
];
/**
 * The `since` and `until` query parameters of a list filtered by time (date-time values), with the
 * list's own words for each: what `since` keeps (at or after) and what `until` keeps (before).
 */
export function timeWindowParams(since: string, until: string): Parameter[] {
  return [
    { name: 'since', in: 'query', schema: { type: 'string', format: 'date-time' }, description: since },
    { name: 'until', in: 'query', schema: { type: 'string', format: 'date-time' }, description: until },
  ];
}
export const webhookFilters: Parameter[] = [
  { name: 'event', in: 'query', schema: ref('WebhookEvent') },
  { name: 'resource', in: 'query', schema: { type: 'string', enum: ['call', 'sms', 'transcription', 'all'] } },
];
export const deliveryFilters: Parameter[] = [
  {
    name: 'outcome',
    in: 'query',
    schema: { type: 'string', enum: ['succeeded', 'retrying', 'failed', 'cancelled'] },
    description: 'Only attempts with this outcome.',
  },
  { name: 'event', in: 'query', schema: { type: 'string' }, description: 'Only attempts of this event name.' },
  ...timeWindowParams(
    'Only attempts made at or after this time (ISO 8601).',
    'Only attempts made before this time (ISO 8601).',
  ),
  {
    name: 'messageId',
    in: 'query',
    schema: { type: 'string' },
    description: 'Every attempt of one message: the `webhook-id` header a receiver logged.',
  },
];
export const jsonBody = (schema: Schema) => ({ required: true, content: { 'application/json': { schema } } });
