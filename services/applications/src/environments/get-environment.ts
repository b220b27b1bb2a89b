import { AppError } from '@switchboard/errors';
import type { GetEnvironmentRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/GetEnvironmentRequest';
import type { Deps } from '../context.ts';
import type { Environment } from '../db/entities.ts';
import { findEnvironment } from './repository.ts';

export async function getEnvironment(deps: Deps, req: GetEnvironmentRequest__Output): Promise<Environment> {
  const env = await findEnvironment(deps.orm.em.fork(), req.id);
  if (!env) throw AppError.notFound('environment');
  return env;
}
