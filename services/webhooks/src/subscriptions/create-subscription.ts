import { AppError, type FieldError } from '@switchboard/platform';
import type { CreateSubscriptionRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/CreateSubscriptionRequest';
import type { Deps, Traced } from '../context';
import { DeletedApplicationSchema, SubscriptionSchema, SubscriptionSecretSchema, type Subscription } from '../db/entities';
import { newSecret, newSubscriptionId } from './ids';
import { limitScope, lockScope, MAX_ACCOUNT_LEVEL, MAX_PER_APPLICATION, requireAccount } from './repository';
import { checkEvent, checkHeaders, sealHeaders, checkName, checkPayload, checkTargetUrl, normaliseResource, throwIfAny } from './rules';

/**
 * Creates an account-level subscription (no application id) or an application-level one (the
 * application must belong to the account). The limits of docs/api-rules.md#limits hold under any concurrency: the
 * count and the insert run under the scope's advisory lock in one transaction.
 */
export async function createSubscription(
  deps: Deps,
  req: Traced<CreateSubscriptionRequest__Output>,
): Promise<{ subscription: Subscription; secret: string }> {
  const { requestId } = req;
  const accountId = requireAccount(req.accountId);
  const applicationId = req.applicationId ? req.applicationId : null;

  const errors: FieldError[] = [];
  const event = req.event === undefined ? (errors.push({ field: 'event', message: 'is required' }), undefined) : checkEvent(req.event, errors);
  const resource =
    req.resource === undefined ? (errors.push({ field: 'resource', message: 'is required' }), undefined) : normaliseResource(req.resource, errors);
  const targetUrl =
    req.targetUrl === undefined
      ? (errors.push({ field: 'targetUrl', message: 'is required' }), undefined)
      : checkTargetUrl(req.targetUrl, deps.allowedCidrs, errors);
  const payload = req.payloadJson === undefined ? null : (checkPayload(req.payloadJson, errors) ?? null);
  const name = req.name === undefined ? null : checkName(req.name, errors);
  const headers = req.headersJson === undefined ? {} : (checkHeaders(req.headersJson, errors) ?? {});
  throwIfAny(errors);

  if (applicationId) await deps.applications.assertOwned(accountId, applicationId, requestId);

  const id = newSubscriptionId();
  const secret = newSecret();
  const subscription = await deps.orm.em.fork().transactional(async (em) => {
    await lockScope(em, limitScope(accountId, applicationId));
    if (applicationId && (await em.count(DeletedApplicationSchema, { applicationId })) > 0) throw AppError.notFound('application');
    // A deleted account has nothing left to subscribe for (its requests no longer authenticate).
    if (!applicationId && (await em.execute(`select 1 from "${deps.schema}".deleted_accounts where account_id = ?`, [accountId])).length > 0) {
      throw AppError.notFound('account');
    }
    const count = await em.count(SubscriptionSchema, applicationId ? { applicationId } : { accountId, applicationId: null });
    const max = applicationId ? MAX_PER_APPLICATION : MAX_ACCOUNT_LEVEL;
    if (count >= max) {
      throw new AppError(
        'limit_exceeded',
        applicationId
          ? `an application can have at most ${max} webhook subscriptions`
          : `an account can have at most ${max} account-level webhook subscriptions`,
      );
    }
    const now = new Date();
    const sub = em.create(SubscriptionSchema, {
      id,
      accountId,
      applicationId,
      name,
      event: event!,
      resource: resource!,
      targetUrl: targetUrl!,
      payload,
      headers: sealHeaders(headers, deps.secrets, id),
      enabled: req.enabled ?? true,
      createdAt: now,
      updatedAt: now,
      consecutiveFailures: 0,
      lastAttemptAt: null,
      lastStatus: null,
      disabledReason: null,
    } as Subscription);
    // The secret row references the subscription: insert the subscription first.
    await em.flush();
    em.create(SubscriptionSecretSchema, { subscriptionId: sub.id, secret: deps.secrets.seal(secret, sub.id), previousSecret: null, previousExpiresAt: null, createdAt: now, rotatedAt: null });
    return sub;
  });
  deps.changes.changed(subscription, requestId);
  return { subscription, secret };
}
