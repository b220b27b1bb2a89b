import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '@switchboard/platform';
import { readOwned } from './repository';
import { readSigningSecrets } from './secret-store';

/** The current session signing secret of an application of the account; any other id is "not found". */
export async function getApplicationSecret(em: EntityManager, box: SecretBox, accountId: string, id: string): Promise<string> {
  const app = await readOwned(em, accountId, id);
  const [current] = await readSigningSecrets(em, box, app.id);
  return current!;
}
