// The rules of alert and usage triggers (docs/api.md#alert-triggers, #usage-triggers), with the
// API's field names in errors.
import { ALERT_CODES, USAGE_CATEGORIES, USAGE_RECURRENCES } from '@switchboard/events';
import { randomHex } from '@switchboard/security';
import type { FieldError } from '@switchboard/errors';

/** Most alert triggers of one account. */
export const MAX_ALERT_TRIGGERS = 50;
/** Most usage triggers of one account. */
export const MAX_USAGE_TRIGGERS = 100;
/** Bounds of an alert trigger's window, in seconds: a minute to a day, in whole minutes. */
export const WINDOW_MIN_S = 60;
export const WINDOW_MAX_S = 86_400;
/** Largest threshold of an alert trigger, and of a usage trigger. */
export const ALERT_THRESHOLD_MAX = 1_000_000;
export const USAGE_THRESHOLD_MAX = 1_000_000_000_000;

export const newAlertTriggerId = (): string => `at_${randomHex(24)}`;
export const newUsageTriggerId = (): string => `ut_${randomHex(24)}`;
export const isAlertTriggerId = (id: string): boolean => /^at_[0-9a-f]{24}$/.test(id);
export const isUsageTriggerId = (id: string): boolean => /^ut_[0-9a-f]{24}$/.test(id);

/** A window as the API writes it: whole hours as `Nh`, else minutes as `Nm`. */
export function windowText(seconds: number): string {
  return seconds % 3600 === 0 ? `${seconds / 3600}h` : `${seconds / 60}m`;
}

/** `1m` .. `24h` (`s`, `m` or `h`; whole minutes) in seconds. */
export function checkWindow(value: string | undefined, errors: FieldError[]): number | undefined {
  if (value === undefined || value === '') {
    errors.push({ field: 'window', message: 'is required: 1m to 24h' });
    return undefined;
  }
  const m = /^(\d{1,6})(s|m|h)$/.exec(value.trim());
  if (!m) {
    errors.push({ field: 'window', message: 'must be a duration such as 5m or 1h, from 1m to 24h' });
    return undefined;
  }
  const seconds = Number(m[1]) * (m[2] === 'h' ? 3600 : m[2] === 'm' ? 60 : 1);
  if (seconds < WINDOW_MIN_S || seconds > WINDOW_MAX_S) {
    errors.push({ field: 'window', message: 'must be from 1m to 24h' });
    return undefined;
  }
  if (seconds % 60 !== 0) {
    errors.push({ field: 'window', message: 'must be whole minutes: alerts are counted per minute' });
    return undefined;
  }
  return seconds;
}

/** An alert code, or `*`. */
export function checkAlertCode(value: string | undefined, errors: FieldError[]): string | undefined {
  if (value === undefined || value === '') {
    errors.push({ field: 'code', message: 'is required: an alert code, or * for every code' });
    return undefined;
  }
  if (value !== '*' && !(ALERT_CODES as readonly string[]).includes(value)) {
    errors.push({ field: 'code', message: `must be * or one of ${ALERT_CODES.join(', ')}` });
    return undefined;
  }
  return value;
}

export function checkThreshold(value: number | undefined, max: number, errors: FieldError[]): number | undefined {
  if (value === undefined) {
    errors.push({ field: 'threshold', message: 'is required' });
    return undefined;
  }
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    errors.push({ field: 'threshold', message: `must be an integer from 1 to ${max}` });
    return undefined;
  }
  return value;
}

export function checkCategory(value: string | undefined, errors: FieldError[], required = true): string | undefined {
  if (value === undefined || value === '') {
    if (required) errors.push({ field: 'category', message: `is required: one of ${USAGE_CATEGORIES.join(', ')}` });
    return undefined;
  }
  if (!(USAGE_CATEGORIES as readonly string[]).includes(value)) {
    errors.push({ field: 'category', message: `must be one of ${USAGE_CATEGORIES.join(', ')}` });
    return undefined;
  }
  return value;
}

/** `none` (the default), `daily` or `monthly`. */
export function checkRecurring(
  value: string | undefined,
  errors: FieldError[],
): (typeof USAGE_RECURRENCES)[number] | undefined {
  const v = value === undefined || value === '' ? 'none' : value;
  if (!(USAGE_RECURRENCES as readonly string[]).includes(v)) {
    errors.push({ field: 'recurring', message: `must be one of ${USAGE_RECURRENCES.join(', ')}` });
    return undefined;
  }
  return v as (typeof USAGE_RECURRENCES)[number];
}

/** An application id as the applications service issues them (the trigger's is checked for ownership after). */
export function checkApplicationId(value: string | undefined, errors: FieldError[]): string | null {
  if (value === undefined || value === '') return null;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) {
    errors.push({ field: 'applicationId', message: 'must be an application id' });
    return null;
  }
  return value;
}
