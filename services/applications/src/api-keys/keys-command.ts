// `npm run account -- keys create|list|revoke`: the account command's API key operations, through
// the same use cases as the API (the audit entries name the account's password as the actor); a
// revocation is announced to the gateways like one made through the API.
import type { MikroORM } from '@mikro-orm/postgresql';
import { AppError } from '@switchboard/errors';
import type { SecretBox } from '@switchboard/security';
import { AccountSchema } from '../db/entities.ts';
import { credentialKeys, type RevokedCredentials } from './announce.ts';
import { createApiKey } from './create-api-key.ts';
import type { CredentialDeps } from './deps.ts';
import { listApiKeys } from './list-api-keys.ts';
import { revokeApiKey } from './revoke-api-key.ts';

export interface KeysCommandOptions {
  username?: string;
  name?: string;
  scope?: string;
  id?: string;
}

/** Runs one keys subcommand; answers the JSON to print. */
export async function runKeysCommand(
  orm: MikroORM,
  secrets: SecretBox | undefined,
  sub: string | undefined,
  o: KeysCommandOptions,
  announceRevoked: (body: RevokedCredentials) => void,
): Promise<unknown> {
  if (!o.username) throw new AppError('invalid_request', '--username is required');
  const account = await orm.em.fork().findOne(AccountSchema, { username: o.username });
  if (!account) throw new AppError('not_found', `no account named ${o.username}`);
  // Only creating a key hashes one: the others work without SECRETS_KEY.
  const keys = secrets ? credentialKeys(secrets) : { apiKeys: Buffer.alloc(0), sessions: Buffer.alloc(0) };
  const deps: CredentialDeps = { orm, credentialKeys: keys, announceRevoked };
  const show = (k: Partial<Record<'id' | 'name' | 'scope' | 'prefix' | 'createdAt' | 'lastUsedAt', string>>) => ({
    id: k.id,
    name: k.name,
    scope: k.scope,
    prefix: k.prefix,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt || null,
  });
  switch (sub) {
    case 'create': {
      if (!secrets)
        throw new AppError('invalid_request', 'SECRETS_KEY is required to create a key (the same as the services use)');
      const { apiKey, key } = await createApiKey(deps, {
        accountId: account.id,
        name: o.name ?? '',
        scope: o.scope ?? 'full',
      });
      return { ...show(apiKey), key };
    }
    case 'list':
      return (await listApiKeys(deps, { accountId: account.id })).map(show);
    case 'revoke':
      if (!o.id) throw new AppError('invalid_request', '--id is required');
      return { revoked: show(await revokeApiKey(deps, { accountId: account.id, id: o.id })).id };
    default:
      throw new AppError('invalid_request', 'keys takes create, list or revoke');
  }
}
