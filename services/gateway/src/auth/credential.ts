// The credential a request was authenticated with (kept beside its Principal): its type, for the
// scope check, the metrics and the audit log.
export type CredentialType = 'password' | 'key' | 'session';

export interface Credential {
  type: CredentialType;
  /** The account id (password), the key's id (key), the session's id (session). */
  id: string;
  /** The key's name, or the username. */
  name?: string;
  /** `read` keys may only read (GET, HEAD); every other credential is `full`. */
  scope: 'full' | 'read';
}

/** `ak_` + 24 hex digits: the username of Basic authentication with an API key. */
export const KEY_ID_FORMAT = /^ak_[0-9a-f]{24}$/;
/** `sbk_` + 32 bytes in base64url. */
export const KEY_FORMAT = /^sbk_[A-Za-z0-9_-]{43}$/;
