// The rules of docs/api-rules.md#subscriptions that a webhook subscription must satisfy, with the API's field names in errors.
import { AppError, checkDeliveryUrl, type Cidr, type FieldError } from '@switchboard/platform';

export const EVENTS = ['smsdlr', 'cdrCreated', 'cdrRated'] as const;
export type EventName = (typeof EVENTS)[number];
/** Resource types in their canonical order; `all` stands alone. */
export const RESOURCES = ['call', 'sms', 'transcription'] as const;
export const ALL = 'all';
export const NAME_MAX = 255;
export { URL_MAX } from '@switchboard/platform';
/** Serialised size limit of the user-defined payload object. */
export const PAYLOAD_MAX_BYTES = 16 * 1024;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The canonical event name; accepted in any letter case ("CDRCREATED" -> "cdrCreated"). */
export function checkEvent(value: string, errors: FieldError[], field = 'event'): EventName | undefined {
  const v = value.trim().toLowerCase();
  const found = EVENTS.find((e) => e.toLowerCase() === v);
  if (!found) errors.push({ field, message: `must be one of ${EVENTS.join(', ')}` });
  return found;
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
    errors.push({ field, message: `unknown resource ${unknown.map((u) => JSON.stringify(u)).join(', ')}; allowed: ${[...RESOURCES, ALL].join(', ')}` });
    return undefined;
  }
  if (items.includes(ALL)) return ALL;
  return RESOURCES.filter((r) => items.includes(r)).join(',');
}

/** True when a subscription's normalised resource list covers an event's resource. */
export function resourceMatches(subscriptionResource: string, eventResource: string): boolean {
  return subscriptionResource === ALL || eventResource === ALL || subscriptionResource.split(',').includes(eventResource);
}

/** Target URLs follow the one rule every delivery URL follows (docs/events.md#delivery). */
export function checkTargetUrl(value: string, allowed: readonly Cidr[], errors: FieldError[], field = 'targetUrl'): string | undefined {
  return checkDeliveryUrl(value, allowed, errors, field);
}

/** The user-defined payload: the JSON text of an object (not an array, not a scalar). */
export function checkPayload(json: string, errors: FieldError[], field = 'payload'): Record<string, unknown> | undefined {
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

/** An optional label: trimmed, at most 255 characters, no control characters; empty means none. */
export function checkName(value: string, errors: FieldError[], field = 'name'): string | null {
  const v = value.trim();
  if (v.length === 0) return null;
  if (v.length > NAME_MAX) errors.push({ field, message: `must be at most ${NAME_MAX} characters` });
  else if (CONTROL.test(v) || LONE_SURROGATE.test(v)) errors.push({ field, message: 'must not contain control characters' });
  return v;
}

export function throwIfAny(errors: FieldError[]): void {
  if (errors.length > 0) throw AppError.invalid(errors);
}
