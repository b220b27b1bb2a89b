// The rules of docs/api-rules.md#applications that an application must satisfy, checked on create and after every update.
import { AppError, type FieldError } from '@switchboard/errors';
import type { Cidr } from '@switchboard/security';
import { checkDeliveryUrl, hasUnsafeNameCharacters, NAME_CHARACTERS_MESSAGE } from '@switchboard/contracts';

export const API_TYPES = ['scripting', 'webapi'] as const;
export const DEFAULT_API_TYPE = 'scripting';
export const PRODUCTION = '1';
export const DEVELOPMENT = '2';
/** Environment used when a request names neither environment nor partition. */
export const DEFAULT_ENVIRONMENT = DEVELOPMENT;
export const NAME_MAX = 255;

export function checkName(name: string, errors: FieldError[]): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) errors.push({ field: 'name', message: 'must not be empty' });
  else if (trimmed.length > NAME_MAX) errors.push({ field: 'name', message: `must be at most ${NAME_MAX} characters` });
  else if (hasUnsafeNameCharacters(trimmed)) errors.push({ field: 'name', message: NAME_CHARACTERS_MESSAGE });
  return trimmed;
}

/**
 * An absolute http(s) URL that deliveries may go to (no literal private address unless allowed),
 * or null when cleared with an empty string.
 */
export function checkUrl(field: string, value: string, allowed: readonly Cidr[], errors: FieldError[]): string | null {
  if (value.trim() === '') return null;
  return checkDeliveryUrl(value, allowed, errors, field) ?? null;
}

export function checkApiType(value: string, errors: FieldError[]): string {
  const v = value.trim().toLowerCase();
  if (!(API_TYPES as readonly string[]).includes(v))
    errors.push({ field: 'apiType', message: `must be one of ${API_TYPES.join(', ')}` });
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
  if (!voiceUrl && !messagingUrl)
    errors.push({ field: 'voiceUrl', message: 'at least one of voiceUrl or messagingUrl must be set' });
}

export function throwIfAny(errors: FieldError[]): void {
  if (errors.length > 0) throw AppError.invalid(errors);
}
