import { EntitySchema } from '@mikro-orm/core';

/**
 * An application's session signing secrets, one row per application, kept apart so that reading an
 * application never loads them. Both values are sealed with SECRETS_KEY (SecretBox), the
 * application id being their associated data.
 */
export interface ApplicationSecret {
  applicationId: string;
  secret: string;
  /** The secret before the last rotation, valid until previousExpiresAt. */
  previousSecret: string | null;
  previousExpiresAt: Date | null;
  createdAt: Date;
  rotatedAt: Date | null;
}

export const ApplicationSecretSchema = new EntitySchema<ApplicationSecret>({
  name: 'ApplicationSecret',
  tableName: 'application_secrets',
  properties: {
    applicationId: { type: 'string', primary: true, fieldName: 'application_id' },
    secret: { type: 'string' },
    previousSecret: { type: 'string', fieldName: 'previous_secret', nullable: true },
    previousExpiresAt: { type: 'Date', fieldName: 'previous_expires_at', nullable: true },
    createdAt: { type: 'Date', fieldName: 'created_at' },
    rotatedAt: { type: 'Date', fieldName: 'rotated_at', nullable: true },
  },
});
