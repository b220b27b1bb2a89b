// The rule every URL that Switchboard delivers to follows: webhook targets and application URLs.
import { judgeHost, type Cidr } from '@switchboard/security';
import type { FieldError } from '@switchboard/errors';

export const URL_MAX = 2048;

/**
 * An absolute http(s) URL of at most 2048 characters, without credentials, whose host is not a
 * literal private/loopback/link-local address unless `allowed` covers it (docs/events.md#delivery).
 */
export function checkDeliveryUrl(
  value: string,
  allowed: readonly Cidr[],
  errors: FieldError[],
  field: string,
): string | undefined {
  const v = value.trim();
  if (v.length === 0) {
    errors.push({ field, message: 'must not be empty' });
    return undefined;
  }
  if (v.length > URL_MAX) {
    errors.push({ field, message: `must be at most ${URL_MAX} characters` });
    return undefined;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters and spaces are exactly what this check refuses
  if (/[\u0000-\u0020\u007f]/.test(v)) {
    errors.push({ field, message: 'must not contain spaces or control characters' });
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    errors.push({ field, message: 'must be an absolute http or https URL' });
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    errors.push({ field, message: 'must be an absolute http or https URL' });
    return undefined;
  }
  if (!url.hostname) {
    errors.push({ field, message: 'must have a host' });
    return undefined;
  }
  if (url.username || url.password) {
    errors.push({ field, message: 'must not contain credentials' });
    return undefined;
  }
  const verdict = judgeHost(url.hostname, allowed);
  if (verdict.kind === 'address' && !verdict.allowed) {
    errors.push({ field, message: 'must not point to a private, loopback, link-local or reserved address' });
    return undefined;
  }
  return v;
}
