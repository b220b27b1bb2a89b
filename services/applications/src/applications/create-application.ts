import { randomBytes } from 'node:crypto';
import { AppError, type FieldError } from '@switchboard/errors';
import { SUBJECTS } from '@switchboard/events';
import type { AuditContext } from '@switchboard/db';
import type { CreateApplicationRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/CreateApplicationRequest';
import type { Deps } from '../context.ts';
import { environmentExists } from '../environments/repository.ts';
import { outboxEvent } from '../outbox/outbox.ts';
import { insertApplication, type ApplicationView } from './repository.ts';
import { newSealedSecret } from './secret-store.ts';
import {
  checkApiType,
  checkName,
  checkUrl,
  DEFAULT_API_TYPE,
  DEFAULT_ENVIRONMENT,
  partitionToEnvironment,
  requireUrl,
  throwIfAny,
} from './rules.ts';

export function newApplicationId(): string {
  return randomBytes(12).toString('hex');
}

/** Creates the application with its own session signing secret, its event and its audit entry, in one statement. */
export async function createApplication(
  deps: Deps,
  req: CreateApplicationRequest__Output,
  audit?: AuditContext,
): Promise<ApplicationView> {
  const allowed = deps.allowedCidrs;
  const errors: FieldError[] = [];
  const name =
    req.name === undefined ? (errors.push({ field: 'name', message: 'is required' }), '') : checkName(req.name, errors);
  const voiceUrl = req.voiceUrl === undefined ? null : checkUrl('voiceUrl', req.voiceUrl, allowed, errors);
  const messagingUrl =
    req.messagingUrl === undefined ? null : checkUrl('messagingUrl', req.messagingUrl, allowed, errors);
  if (!errors.some((e) => e.field === 'voiceUrl' || e.field === 'messagingUrl'))
    requireUrl(voiceUrl, messagingUrl, errors);
  const voiceFallbackUrl =
    req.voiceFallbackUrl === undefined ? null : checkUrl('voiceFallbackUrl', req.voiceFallbackUrl, allowed, errors);
  const messagingFallbackUrl =
    req.messagingFallbackUrl === undefined
      ? null
      : checkUrl('messagingFallbackUrl', req.messagingFallbackUrl, allowed, errors);
  const apiType = req.apiType === undefined ? DEFAULT_API_TYPE : checkApiType(req.apiType, errors);
  let environmentId: string | undefined = req.environmentId;
  if (environmentId === undefined && req.partition !== undefined)
    environmentId = partitionToEnvironment(req.partition, errors);
  environmentId ??= DEFAULT_ENVIRONMENT;
  throwIfAny(errors);
  const em = deps.orm.em;
  if (!(await environmentExists(em.fork(), environmentId)))
    throw AppError.invalid([{ field: 'environment', message: `environment ${environmentId} does not exist` }]);

  // The hot path of the API's writes: one statement (application, secret, event, audit entry)
  // instead of a unit of work flushed in a transaction of six round trips.
  const now = new Date();
  const id = newApplicationId();
  const app = await insertApplication(
    em,
    {
      id,
      accountId: req.accountId,
      name,
      voiceUrl,
      messagingUrl,
      voiceFallbackUrl,
      messagingFallbackUrl,
      environmentId,
      apiType,
      partition: null,
      createdAt: now,
      updatedAt: now,
    },
    newSealedSecret(deps.secrets, id),
    outboxEvent(SUBJECTS.applicationChanged, { applicationId: id, accountId: req.accountId }),
    audit,
  );
  deps.outbox.kick();
  return app;
}
