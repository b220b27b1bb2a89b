import { AppError, type FieldError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { CreateSubscriptionRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/CreateSubscriptionRequest';
import type { Deps, Traced } from '../context.ts';
import { newSecret, newSubscriptionId } from './ids.ts';
import {
  createWithinLimit,
  limitScope,
  MAX_ACCOUNT_LEVEL,
  MAX_PER_APPLICATION,
  requireAccount,
  type SubscriptionView,
} from './repository.ts';
import {
  checkEvent,
  checkEventScope,
  checkHeaders,
  sealHeaders,
  checkName,
  checkPayload,
  checkTargetUrl,
  normaliseResource,
  throwIfAny,
} from './rules.ts';
import { checkSettings, sealSettings } from './delivery-settings.ts';

/**
 * Creates an account-level subscription (no application id) or an application-level one (the
 * application must belong to the account). The limits of docs/api-rules.md#limits hold under any concurrency: the
 * count and the insert run under the scope's advisory lock in one transaction, with the audit entry.
 */
export async function createSubscription(
  deps: Deps,
  req: Traced<CreateSubscriptionRequest__Output>,
  audit?: AuditContext,
): Promise<{ subscription: SubscriptionView; secret: string }> {
  const { requestId } = req;
  const accountId = requireAccount(req.accountId);
  const applicationId = req.applicationId ? req.applicationId : null;

  const errors: FieldError[] = [];
  const event =
    req.event === undefined
      ? (errors.push({ field: 'event', message: 'is required' }), undefined)
      : checkEvent(req.event, errors);
  const resource =
    req.resource === undefined
      ? (errors.push({ field: 'resource', message: 'is required' }), undefined)
      : normaliseResource(req.resource, errors);
  const targetUrl =
    req.targetUrl === undefined
      ? (errors.push({ field: 'targetUrl', message: 'is required' }), undefined)
      : checkTargetUrl(req.targetUrl, deps.allowedCidrs, errors);
  const payload = req.payloadJson === undefined ? null : (checkPayload(req.payloadJson, errors) ?? null);
  const name = req.name === undefined ? null : checkName(req.name, errors);
  const headers = req.headersJson === undefined ? {} : (checkHeaders(req.headersJson, errors) ?? {});
  const settings =
    req.settingsJson === undefined ? {} : (checkSettings(req.settingsJson, {}, deps.allowedCidrs, errors) ?? {});
  if (event) checkEventScope(event, resource, applicationId, errors);
  throwIfAny(errors);

  if (applicationId) await deps.applications.assertOwned(accountId, applicationId, requestId);

  const id = newSubscriptionId();
  const secret = newSecret();
  const now = new Date();
  const max = applicationId ? MAX_PER_APPLICATION : MAX_ACCOUNT_LEVEL;
  // One transaction (shared with the creates that arrived in the same batch): BEGIN with the scope's
  // lock, the checks and both inserts in one prepared statement, COMMIT.
  const result = await createWithinLimit(deps.orm.em, {
    scope: limitScope(accountId, applicationId),
    subscription: {
      id,
      accountId,
      applicationId,
      name,
      event: event!,
      resource: resource!,
      targetUrl: targetUrl!,
      payload,
      headers: sealHeaders(headers, deps.secrets, id),
      settings: sealSettings(settings, deps.secrets, id),
      enabled: req.enabled ?? true,
      createdAt: now,
      updatedAt: now,
      consecutiveFailures: 0,
      lastAttemptAt: null,
      lastStatus: null,
      disabledReason: null,
      firstFailureAt: null,
    },
    sealedSecret: deps.secrets.seal(secret, id),
    max,
    audit,
  });
  // A deleted account has nothing left to subscribe for (its requests no longer authenticate).
  if (result.outcome === 'scope_deleted') throw AppError.notFound(applicationId ? 'application' : 'account');
  if (result.outcome === 'limit_reached') {
    throw new AppError(
      'limit_exceeded',
      applicationId
        ? `an application can have at most ${max} webhook subscriptions`
        : `an account can have at most ${max} account-level webhook subscriptions`,
    );
  }
  deps.changes.changed(result.subscription, requestId);
  return { subscription: result.subscription, secret };
}
