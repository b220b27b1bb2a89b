import { AppError, type FieldError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { AlertTrigger } from '@switchboard/proto/generated/switchboard/webhooks/v1/AlertTrigger';
import type { CreateAlertTriggerRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/CreateAlertTriggerRequest';
import type { Deps, Traced } from '../context.ts';
import { AlertTriggerSchema } from '../db/entities.ts';
import { requireAccount } from '../subscriptions/repository.ts';
import { alertTriggerMessage } from './mapper.ts';
import { applicationDeleted } from './repository.ts';
import {
  ALERT_THRESHOLD_MAX,
  checkAlertCode,
  checkApplicationId,
  checkThreshold,
  checkWindow,
  MAX_ALERT_TRIGGERS,
  newAlertTriggerId,
} from './rules.ts';
import { storeTrigger } from './store-trigger.ts';

/** The path of an alert trigger (the target of its audit entries). */
export const alertTriggerPath = (id: string) => `/v1/alert-triggers/${id}`;

/**
 * Creates an alert trigger of the account. Every field in error is named in one 400; an
 * application that is not the account's is a 400 naming `applicationId`. The count of the
 * account's triggers, the insert and the audit entry run in one transaction under the account's
 * trigger lock, so the 51st is a 409 under any concurrency.
 */
export async function createAlertTrigger(
  deps: Pick<Deps, 'orm' | 'schema' | 'applications'>,
  req: Traced<CreateAlertTriggerRequest__Output>,
  audit?: AuditContext,
): Promise<AlertTrigger> {
  const accountId = requireAccount(req.accountId);
  const errors: FieldError[] = [];
  const code = checkAlertCode(req.code, errors);
  const applicationId = checkApplicationId(req.applicationId, errors);
  const threshold = checkThreshold(req.threshold, ALERT_THRESHOLD_MAX, errors);
  const windowSeconds = checkWindow(req.window, errors);
  if (errors.length > 0) throw AppError.invalid(errors);
  if (applicationId) {
    try {
      await deps.applications.assertOwned(accountId, applicationId, req.requestId);
    } catch (err) {
      if (err instanceof AppError && err.code === 'not_found')
        throw AppError.invalid([{ field: 'applicationId', message: 'is not an application of this account' }]);
      throw err;
    }
  }
  const id = newAlertTriggerId();
  const row = await storeTrigger(deps, 'alert', accountId, id, alertTriggerPath(id), audit, async (em) => {
    if (applicationId && (await applicationDeleted(em, deps.schema, applicationId)))
      throw AppError.invalid([{ field: 'applicationId', message: 'is not an application of this account' }]);
    const n = await em.count(AlertTriggerSchema, { accountId });
    if (n >= MAX_ALERT_TRIGGERS)
      throw new AppError('limit_exceeded', `an account can have at most ${MAX_ALERT_TRIGGERS} alert triggers`);
    em.create(AlertTriggerSchema, {
      id,
      accountId,
      code: code!,
      applicationId,
      threshold: threshold!,
      windowSeconds: windowSeconds!,
      createdAt: new Date(),
      firedAt: null,
      firedCount: 0,
    });
  });
  return alertTriggerMessage(row);
}
