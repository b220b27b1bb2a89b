import type { AuditContext } from '@switchboard/db';
import { auditWithFlush } from '../audit/repository.ts';
import { AppError, type FieldError } from '@switchboard/errors';
import { SUBJECTS } from '@switchboard/events';
import type { UpdateApplicationRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/UpdateApplicationRequest';
import type { Deps } from '../context.ts';
import type { Application } from '../db/entities.ts';
import { environmentExists } from '../environments/repository.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import { applicationPath, findOwned } from './repository.ts';
import { checkApiType, checkName, checkUrl, partitionToEnvironment, requireUrl, throwIfAny } from './rules.ts';

/** Fields that are sent replace the stored values; fields left out stay (docs/api-rules.md#applications rule 1). */
export async function updateApplication(
  deps: Deps,
  req: UpdateApplicationRequest__Output,
  audit?: AuditContext,
): Promise<Application> {
  const allowed = deps.allowedCidrs;
  const em = deps.orm.em.fork();
  const app = await findOwned(em, req.accountId, req.id);
  const errors: FieldError[] = [];
  const name = req.name === undefined ? app.name : checkName(req.name, errors);
  const voiceUrl = req.voiceUrl === undefined ? app.voiceUrl : checkUrl('voiceUrl', req.voiceUrl, allowed, errors);
  const messagingUrl =
    req.messagingUrl === undefined ? app.messagingUrl : checkUrl('messagingUrl', req.messagingUrl, allowed, errors);
  if (!errors.some((e) => e.field === 'voiceUrl' || e.field === 'messagingUrl'))
    requireUrl(voiceUrl, messagingUrl, errors);
  const voiceFallbackUrl =
    req.voiceFallbackUrl === undefined
      ? app.voiceFallbackUrl
      : checkUrl('voiceFallbackUrl', req.voiceFallbackUrl, allowed, errors);
  const messagingFallbackUrl =
    req.messagingFallbackUrl === undefined
      ? app.messagingFallbackUrl
      : checkUrl('messagingFallbackUrl', req.messagingFallbackUrl, allowed, errors);
  const apiType = req.apiType === undefined ? app.apiType : checkApiType(req.apiType, errors);
  let environmentId: string | undefined = req.environmentId;
  if (environmentId === undefined && req.partition !== undefined)
    environmentId = partitionToEnvironment(req.partition, errors);
  throwIfAny(errors);
  if (
    environmentId !== undefined &&
    environmentId !== app.environmentId &&
    !(await environmentExists(em, environmentId))
  ) {
    throw AppError.invalid([{ field: 'environment', message: `environment ${environmentId} does not exist` }]);
  }
  Object.assign(app, {
    name,
    voiceUrl,
    messagingUrl,
    voiceFallbackUrl,
    messagingFallbackUrl,
    apiType,
    environmentId: environmentId ?? app.environmentId,
    updatedAt: new Date(),
  });
  enqueueEvent(em, SUBJECTS.applicationChanged, { applicationId: app.id, accountId: app.accountId });
  auditWithFlush(
    em,
    {
      accountId: app.accountId,
      action: 'application.update',
      target: applicationPath(app.id),
      outcome: 'success',
    },
    audit,
  );
  await em.flush();
  deps.outbox.kick();
  return app;
}
