// A subscription's delivery settings (docs/api.md#delivery-settings): its own attempt timeout,
// ordering by a key of the event's data, a rate limit, and how the receiver authenticates the
// dispatcher (OAuth2 client credentials, a TLS client certificate). Secrets inside them (the OAuth2
// client secret, the TLS private key) are sealed at rest for their subscription and field, and read
// back through the API as "***".
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { Cidr, SecretBox } from '@switchboard/security';
import type { FieldError } from '@switchboard/errors';
import { checkDeliveryUrl } from '@switchboard/contracts';

export const TIMEOUT_MIN_MS = 1_000;
export const TIMEOUT_MAX_MS = 30_000;
export const PER_SECOND_MAX = 1_000;
export const MAX_HOLD_DEFAULT_S = 3_600;
export const MAX_HOLD_MAX_S = 86_400;
/** A PEM text (a certificate chain or a key) is at most this long. */
export const PEM_MAX = 16 * 1024;
const TEXT_MAX = 1024;
/** A field name of the event's `data`. */
const KEY_FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const MASKED = '***';

export interface OAuth2Auth {
  type: 'oauth2_client_credentials';
  tokenUrl: string;
  clientId: string;
  /** Sealed at rest; the opened value only in what the dispatcher reads. */
  clientSecret: string;
  scope?: string;
}

export interface DeliverySettings {
  timeoutMs?: number;
  ordering?: { key: string; maxHoldSeconds: number };
  rateLimit?: { perSecond: number };
  auth?: OAuth2Auth;
  /** privateKey sealed at rest. */
  tls?: { clientCertificate: string; privateKey: string };
}

/** The settings fields a create or update may carry; `{}` for an object field removes it (update). */
export const SETTINGS_FIELDS = ['timeoutMs', 'ordering', 'rateLimit', 'auth', 'tls'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmpty = (v: unknown) => isObject(v) && Object.keys(v).length === 0;

function int(v: unknown, min: number, max: number, field: string, errors: FieldError[]): number | undefined {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    errors.push({ field, message: `must be an integer from ${min} to ${max}` });
    return undefined;
  }
  return v;
}

function str(v: unknown, max: number, field: string, errors: FieldError[], required = true): string | undefined {
  if (v === undefined || v === null) {
    if (required) errors.push({ field, message: 'is required' });
    return undefined;
  }
  if (typeof v !== 'string' || v.trim().length === 0 || v.length > max) {
    errors.push({ field, message: `must be a non-empty string of at most ${max} characters` });
    return undefined;
  }
  return v.trim();
}

/** The TLS pair: a PEM certificate and the PEM private key that belongs to it (checked on every write). */
function checkTls(v: Record<string, unknown>, errors: FieldError[]): DeliverySettings['tls'] {
  const before = errors.length;
  const cert = str(v.clientCertificate, PEM_MAX, 'tls.clientCertificate', errors);
  const key = str(v.privateKey, PEM_MAX, 'tls.privateKey', errors);
  if (cert === undefined || key === undefined) return undefined;
  let x509: X509Certificate | undefined;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    errors.push({ field: 'tls.clientCertificate', message: 'must be a PEM X.509 certificate' });
  }
  let privateKey: ReturnType<typeof createPrivateKey> | undefined;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    errors.push({ field: 'tls.privateKey', message: 'must be an unencrypted PEM private key' });
  }
  if (x509 && privateKey && !x509.checkPrivateKey(privateKey))
    errors.push({ field: 'tls.privateKey', message: 'does not belong to tls.clientCertificate' });
  if (x509 && new Date(x509.validTo).getTime() < Date.now())
    errors.push({ field: 'tls.clientCertificate', message: `expired on ${new Date(x509.validTo).toISOString()}` });
  return errors.length > before ? undefined : { clientCertificate: cert, privateKey: key };
}

function checkAuth(v: Record<string, unknown>, allowed: readonly Cidr[], errors: FieldError[]): OAuth2Auth | undefined {
  const before = errors.length;
  if (v.type !== 'oauth2_client_credentials') {
    errors.push({ field: 'auth.type', message: 'must be oauth2_client_credentials' });
    return undefined;
  }
  const tokenUrl =
    typeof v.tokenUrl === 'string'
      ? checkDeliveryUrl(v.tokenUrl, allowed, errors, 'auth.tokenUrl')
      : (errors.push({ field: 'auth.tokenUrl', message: 'is required' }), undefined);
  const clientId = str(v.clientId, TEXT_MAX, 'auth.clientId', errors);
  const clientSecret = str(v.clientSecret, TEXT_MAX, 'auth.clientSecret', errors);
  const scope = str(v.scope, TEXT_MAX, 'auth.scope', errors, false);
  if (errors.length > before) return undefined;
  return {
    type: 'oauth2_client_credentials',
    tokenUrl: tokenUrl!,
    clientId: clientId!,
    clientSecret: clientSecret!,
    ...(scope ? { scope } : {}),
  };
}

/**
 * The settings a request gives (the JSON text of an object with some of SETTINGS_FIELDS), checked
 * and merged over `current`: a field given replaces the stored one, `{}` removes an object field,
 * `timeoutMs: null` removes the timeout, fields left out stay. Secrets are in clear here (seal before storing).
 */
export function checkSettings(
  json: string,
  current: DeliverySettings,
  allowed: readonly Cidr[],
  errors: FieldError[],
): DeliverySettings | undefined {
  let given: unknown;
  try {
    given = JSON.parse(json);
  } catch {
    given = undefined;
  }
  if (!isObject(given)) {
    errors.push({ field: 'settings', message: 'must be a JSON object' });
    return undefined;
  }
  const before = errors.length;
  const next: DeliverySettings = { ...current };
  if (given.timeoutMs === null) delete next.timeoutMs;
  else if (given.timeoutMs !== undefined)
    next.timeoutMs = int(given.timeoutMs, TIMEOUT_MIN_MS, TIMEOUT_MAX_MS, 'timeoutMs', errors);
  for (const field of ['ordering', 'rateLimit', 'auth', 'tls'] as const) {
    const v = given[field];
    if (v === undefined) continue;
    if (!isObject(v)) {
      errors.push({ field, message: 'must be an object ({} removes it)' });
      continue;
    }
    if (isEmpty(v)) {
      delete next[field];
      continue;
    }
    if (field === 'ordering') {
      const key =
        typeof v.key === 'string' && KEY_FIELD.test(v.key)
          ? v.key
          : (errors.push({
              field: 'ordering.key',
              message: 'must be the name of a field of the event data (letters, digits, _; at most 64)',
            }),
            undefined);
      const maxHoldSeconds =
        v.maxHoldSeconds === undefined
          ? MAX_HOLD_DEFAULT_S
          : int(v.maxHoldSeconds, 1, MAX_HOLD_MAX_S, 'ordering.maxHoldSeconds', errors);
      if (key !== undefined && maxHoldSeconds !== undefined) next.ordering = { key, maxHoldSeconds };
    } else if (field === 'rateLimit') {
      const perSecond = int(v.perSecond, 1, PER_SECOND_MAX, 'rateLimit.perSecond', errors);
      if (perSecond !== undefined) next.rateLimit = { perSecond };
    } else if (field === 'auth') {
      next.auth = checkAuth(v, allowed, errors);
    } else {
      next.tls = checkTls(v, errors);
    }
  }
  return errors.length > before ? undefined : next;
}

/** The associated data of a sealed settings secret: its subscription and field. */
const owner = (subscriptionId: string, field: 'auth' | 'tls') => `${subscriptionId}:settings:${field}`;

/** The settings with each secret (the client secret, the private key) passed through `f` with its associated data. */
function mapSecrets(
  s: DeliverySettings,
  subscriptionId: string,
  f: (secret: string, associatedData: string) => string,
): DeliverySettings {
  return {
    ...s,
    ...(s.auth ? { auth: { ...s.auth, clientSecret: f(s.auth.clientSecret, owner(subscriptionId, 'auth')) } } : {}),
    ...(s.tls ? { tls: { ...s.tls, privateKey: f(s.tls.privateKey, owner(subscriptionId, 'tls')) } } : {}),
  };
}

/** The settings as stored: the client secret and the private key sealed. */
export function sealSettings(s: DeliverySettings, box: SecretBox, subscriptionId: string): DeliverySettings {
  return mapSecrets(s, subscriptionId, (secret, ad) => box.seal(secret, ad));
}

/** The settings to deliver with: every secret opened. */
export function openSettings(s: DeliverySettings, box: SecretBox, subscriptionId: string): DeliverySettings {
  return mapSecrets(s, subscriptionId, (secret, ad) => box.open(secret, ad));
}

/** The settings as they read through the API: the secrets as "***". */
export function maskSettings(s: DeliverySettings): DeliverySettings {
  return {
    ...s,
    ...(s.auth ? { auth: { ...s.auth, clientSecret: MASKED } } : {}),
    ...(s.tls ? { tls: { ...s.tls, privateKey: MASKED } } : {}),
  };
}
