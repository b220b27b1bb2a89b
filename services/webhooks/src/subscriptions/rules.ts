// The rules of docs/api-rules.md#subscriptions that a webhook subscription must satisfy, with the API's field names in errors.
import { EVENT_NAMES, EVENT_TYPES } from '@switchboard/events';
import { AppError, type FieldError } from '@switchboard/errors';
import { SecretBox, type Cidr } from '@switchboard/security';
import { checkDeliveryUrl, hasUnsafeNameCharacters, NAME_CHARACTERS_MESSAGE } from '@switchboard/contracts';

/** The subscribable events: the catalogue of GET /v1/event-types (packages/events). */
export const EVENTS: readonly string[] = EVENT_NAMES;
export type EventName = string;
/** Resource types in their canonical order; `all` stands alone. */
export const RESOURCES = ['call', 'sms', 'transcription'] as const;
export const ALL = 'all';
export const NAME_MAX = 255;
export { URL_MAX } from '@switchboard/contracts';
/** Serialised size limit of the user-defined payload object. */
export const PAYLOAD_MAX_BYTES = 16 * 1024;

/** The canonical event name; accepted in any letter case ("CDRCREATED" -> "cdrCreated"). */
export function checkEvent(value: string, errors: FieldError[], field = 'event'): EventName | undefined {
  const v = value.trim().toLowerCase();
  const found = EVENTS.find((e) => e.toLowerCase() === v);
  if (!found) errors.push({ field, message: `must be one of ${EVENTS.join(', ')}` });
  return found;
}

/**
 * What the catalogue says of an event beyond its name: an event that is not `applicationLevel`
 * (webhookDisabled) takes account-level subscriptions only, and one whose events come with no
 * resource of their own (its resources are just `all`) takes the resource `all` only.
 */
export function checkEventScope(
  event: string,
  resource: string | undefined,
  applicationId: string | null,
  errors: FieldError[],
): void {
  const type = EVENT_TYPES.find((t) => t.name === event);
  if (!type) return;
  if (!type.applicationLevel && applicationId) {
    errors.push({
      field: 'event',
      message: `${event} is an account-level event: subscribe to it at /v1/webhooks, not on an application`,
    });
  }
  if (resource !== undefined && type.resources.every((r) => r === ALL) && resource !== ALL) {
    errors.push({ field: 'resource', message: `must be ${ALL} for ${event}` });
  }
}

/**
 * Normalises a resource list: comma-separated, trimmed, any case, duplicates dropped, canonical
 * order (call,sms,transcription); any list containing `all` is `all`.
 */
export function normaliseResource(value: string, errors: FieldError[], field = 'resource'): string | undefined {
  const items = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
  if (items.length === 0) {
    errors.push({ field, message: `must list one or more of ${[...RESOURCES, ALL].join(', ')}, separated by commas` });
    return undefined;
  }
  const unknown = items.filter((i) => i !== ALL && !(RESOURCES as readonly string[]).includes(i));
  if (unknown.length > 0) {
    errors.push({
      field,
      message: `unknown resource ${unknown.map((u) => JSON.stringify(u)).join(', ')}; allowed: ${[...RESOURCES, ALL].join(', ')}`,
    });
    return undefined;
  }
  if (items.includes(ALL)) return ALL;
  return RESOURCES.filter((r) => items.includes(r)).join(',');
}

/** True when a subscription's normalised resource list covers an event's resource. */
export function resourceMatches(subscriptionResource: string, eventResource: string): boolean {
  return (
    subscriptionResource === ALL || eventResource === ALL || subscriptionResource.split(',').includes(eventResource)
  );
}

/** Target URLs follow the one rule every delivery URL follows (docs/events.md#delivery). */
export function checkTargetUrl(
  value: string,
  allowed: readonly Cidr[],
  errors: FieldError[],
  field = 'targetUrl',
): string | undefined {
  return checkDeliveryUrl(value, allowed, errors, field);
}

/** Custom headers per subscription (docs/api.md#custom-headers). */
export const HEADERS_MAX = 10;
export const HEADER_VALUE_MAX = 4096;
/** RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
/** Hop-by-hop headers (RFC 9110 7.6.1 and the older ones proxies still honour) and the ones Switchboard sets itself. */
const HEADERS_REFUSED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'user-agent',
]);
/** The header whose value is write-only. */
export const SECRET_HEADER = 'authorization';

/**
 * Custom headers: the JSON text of an object of at most HEADERS_MAX string values, names HTTP
 * tokens, no name twice in any case, none of the refused ones nor `Content-*` or `webhook-*`.
 */
export function checkHeaders(
  json: string,
  errors: FieldError[],
  field = 'headers',
): Record<string, string> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    errors.push({ field, message: 'must be a JSON object of header names to string values' });
    return undefined;
  }
  const entries = Object.entries(parsed as Record<string, unknown>);
  const before = errors.length;
  if (entries.length > HEADERS_MAX) errors.push({ field, message: `must hold at most ${HEADERS_MAX} headers` });
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    const at = `${field}.${name}`;
    if (!HEADER_NAME.test(name))
      errors.push({ field: at, message: "must be an HTTP header name (a token: letters, digits and !#$%&'*+.^_`|~-)" });
    else if (HEADERS_REFUSED.has(lower) || lower.startsWith('content-') || lower.startsWith('webhook-')) {
      errors.push({
        field: at,
        message: 'is not allowed: hop-by-hop headers, Host, User-Agent, Content-* and webhook-* are set by Switchboard',
      });
    } else if (seen.has(lower))
      errors.push({ field: at, message: 'is given twice (header names are case-insensitive)' });
    seen.add(lower);
    if (typeof value !== 'string') errors.push({ field: at, message: 'must be a string' });
    else if (value.length > HEADER_VALUE_MAX)
      errors.push({ field: at, message: `must be at most ${HEADER_VALUE_MAX} characters` });
    else if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value))
      errors.push({ field: at, message: 'must not contain control or non-Latin-1 characters' });
  }
  return errors.length > before ? undefined : Object.fromEntries(entries.map(([n, v]) => [n, (v as string).trim()]));
}

/**
 * The associated data of one header value: the subscription and the header's name, so a sealed value
 * opens only in the field it was sealed for (not in another header, nor another subscription).
 */
export const headerOwner = (subscriptionId: string, name: string) => `${subscriptionId}:header:${name.toLowerCase()}`;

/** Every header value sealed with SECRETS_KEY for its subscription and name. */
export function sealHeaders(
  headers: Record<string, string>,
  box: SecretBox,
  subscriptionId: string,
): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, box.seal(v, headerOwner(subscriptionId, n))]));
}

/** One stored header value in clear: sealed for its field; or, as stored before, an Authorization sealed for the subscription, or plaintext. */
export function openHeader(name: string, value: string, box: SecretBox, subscriptionId: string): string {
  if (!SecretBox.isSealed(value)) return value;
  if (name.toLowerCase() !== SECRET_HEADER) return box.open(value, headerOwner(subscriptionId, name));
  try {
    return box.open(value, headerOwner(subscriptionId, name));
  } catch {
    return box.open(value, subscriptionId);
  }
}

/** The headers to send: every value opened. */
export function openHeaders(
  headers: Readonly<Record<string, string>>,
  box: SecretBox,
  subscriptionId: string,
): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, openHeader(n, v, box, subscriptionId)]));
}

/** Headers as they read through the API: names only, every value replaced by "***" (they may carry credentials). */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((n) => [n, '***']));
}

/** The user-defined payload: the JSON text of an object (not an array, not a scalar). */
export function checkPayload(
  json: string,
  errors: FieldError[],
  field = 'payload',
): Record<string, unknown> | undefined {
  if (Buffer.byteLength(json, 'utf8') > PAYLOAD_MAX_BYTES) {
    errors.push({ field, message: `must be at most ${PAYLOAD_MAX_BYTES} bytes of JSON` });
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    errors.push({ field, message: 'must be a JSON object' });
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    errors.push({ field, message: 'must be a JSON object' });
    return undefined;
  }
  return parsed as Record<string, unknown>;
}

/** An optional label: trimmed, at most 255 characters, no control or bidirectional formatting characters; empty means none. */
export function checkName(value: string, errors: FieldError[], field = 'name'): string | null {
  const v = value.trim();
  if (v.length === 0) return null;
  if (v.length > NAME_MAX) errors.push({ field, message: `must be at most ${NAME_MAX} characters` });
  else if (hasUnsafeNameCharacters(v)) errors.push({ field, message: NAME_CHARACTERS_MESSAGE });
  return v;
}

export function throwIfAny(errors: FieldError[]): void {
  if (errors.length > 0) throw AppError.invalid(errors);
}
