// The session signing secrets of applications (docs/events.md#signatures), sealed with SECRETS_KEY in their own
// table: reading an application never loads them, and only this module sees them in clear.
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/errors';
import { newSigningSecret, type SecretBox } from '@switchboard/security';
import { ApplicationSecretSchema } from '../db/secret-entities.ts';
import { readSealedSecrets } from './repository.ts';

/** How long the secret before a rotation keeps signing alongside the new one. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

/** A new signing secret for an application, sealed for its row (written with the application: insertApplication). */
export function newSealedSecret(box: SecretBox, applicationId: string): string {
  return box.seal(newSigningSecret(), applicationId);
}

/** The secrets that sign for the application: the current one first, then the previous one while it is valid. */
export async function readSigningSecrets(em: EntityManager, box: SecretBox, applicationId: string): Promise<string[]> {
  const row = await readSealedSecrets(em, applicationId);
  if (!row) throw new AppError('internal', `application ${applicationId} has no session secret`);
  const secrets = [box.open(row.secret, applicationId)];
  if (row.previous_secret && row.previous_valid) secrets.push(box.open(row.previous_secret, applicationId));
  return secrets;
}

/**
 * Replaces the current secret inside the caller's transaction; the replaced one becomes "previous"
 * for 24 h (an older previous is dropped). The row is locked: two rotations at once cannot both keep
 * the same previous. Returns the new secret in clear.
 */
export async function replaceSecret(em: EntityManager, box: SecretBox, applicationId: string): Promise<string> {
  const row = await em.findOne(ApplicationSecretSchema, { applicationId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!row) throw new AppError('internal', `application ${applicationId} has no session secret`);
  const secret = newSigningSecret();
  const now = new Date();
  row.previousSecret = row.secret;
  row.previousExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS);
  row.secret = box.seal(secret, applicationId);
  row.rotatedAt = now;
  return secret;
}
