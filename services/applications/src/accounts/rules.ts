import type { FieldError } from '@switchboard/errors';

/** Usernames: 1-128 letters, digits and . _ @ + - (checked before any query). */
export const USERNAME = /^[A-Za-z0-9._@+-]{1,128}$/;

/** What is wrong with a new password (8-1024 characters), under the field name given. */
export function passwordErrors(password: string, field = 'password'): FieldError[] {
  return password.length < 8 || password.length > 1024 ? [{ field, message: 'must be 8-1024 characters' }] : [];
}
