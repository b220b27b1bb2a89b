// The rules of SPEC 2.1 that an application must satisfy, checked on create and after every update.
import { AppError, type FieldError } from '@switchboard/platform';

export const API_TYPES = ['scripting', 'webapi'] as const;
export const DEFAULT_API_TYPE = 'scripting';
export const PRODUCTION = '1';
export const DEVELOPMENT = '2';
/** Environment used when a request names neither environment nor partition. */
export const DEFAULT_ENVIRONMENT = DEVELOPMENT;
export const NAME_MAX = 255;
export const URL_MAX = 2048;

// Control characters (C0, DEL, C1) and unpaired surrogates are never part of a name.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function checkName(name: string, errors: FieldError[]): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) errors.push({ field: 'name', message: 'must not be empty' });
  else if (trimmed.length > NAME_MAX) errors.push({ field: 'name', message: `must be at most ${NAME_MAX} characters` });
  else if (CONTROL.test(trimmed) || LONE_SURROGATE.test(trimmed)) errors.push({ field: 'name', message: 'must not contain control characters' });
  return trimmed;
}

/** An absolute http(s) URL, or null when cleared (empty string). */
export function checkUrl(field: string, value: string, errors: FieldError[]): string | null {
  const v = value.trim();
  if (v === '') return null;
  if (v.length > URL_MAX) {
    errors.push({ field, message: `must be at most ${URL_MAX} characters` });
    return null;
  }
  if (CONTROL.test(v) || LONE_SURROGATE.test(v) || /\s/.test(v)) {
    errors.push({ field, message: 'must not contain spaces or control characters' });
    return null;
  }
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    errors.push({ field, message: 'must be an absolute http or https URL' });
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') errors.push({ field, message: 'must be an absolute http or https URL' });
  else if (!url.hostname) errors.push({ field, message: 'must have a host' });
  return v;
}

export function checkApiType(value: string, errors: FieldError[]): string {
  const v = value.trim().toLowerCase();
  if (!(API_TYPES as readonly string[]).includes(v)) errors.push({ field: 'apiType', message: `must be one of ${API_TYPES.join(', ')}` });
  return v;
}

/** Legacy `partition`: staging -> Development, production -> Production (any case). */
export function partitionToEnvironment(value: string, errors: FieldError[]): string | undefined {
  const v = value.trim().toLowerCase();
  if (v === 'production') return PRODUCTION;
  if (v === 'staging' || v === 'development') return DEVELOPMENT;
  errors.push({ field: 'partition', message: 'must be staging or production' });
  return undefined;
}

export function requireUrl(voiceUrl: string | null, messagingUrl: string | null, errors: FieldError[]): void {
  if (!voiceUrl && !messagingUrl) errors.push({ field: 'voiceUrl', message: 'at least one of voiceUrl or messagingUrl must be set' });
}

export function throwIfAny(errors: FieldError[]): void {
  if (errors.length > 0) throw AppError.invalid(errors);
}
