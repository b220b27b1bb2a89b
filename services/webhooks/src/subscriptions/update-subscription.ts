import { recordAlone } from '@switchboard/db';
import { AppError, type FieldError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { UpdateSubscriptionRequest__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/UpdateSubscriptionRequest';
import type { Deps, Traced } from '../context.ts';
import type { Subscription } from '../db/entities.ts';
import { findOwned, webhookPath } from './repository.ts';
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
import { checkSettings, openSettings, sealSettings } from './delivery-settings.ts';

/**
 * Fields that are sent replace the stored values; fields left out stay (docs/api-rules.md#subscriptions). `event` may be
 * sent only with its current value (409 otherwise). Re-enabling a disabled subscription clears its
 * disabled reason, its failure count and the start of its failing run (DELIVERY_DISABLE_AFTER counts afresh).
 */
export async function updateSubscription(
  deps: Deps,
  req: Traced<UpdateSubscriptionRequest__Output>,
  audit?: AuditContext,
): Promise<Subscription> {
  const em = deps.orm.em.fork();
  const sub = await findOwned(em, req.accountId, req.id, req.applicationId || undefined);

  const errors: FieldError[] = [];
  const event = req.event === undefined ? undefined : checkEvent(req.event, errors);
  const resource = req.resource === undefined ? undefined : normaliseResource(req.resource, errors);
  const targetUrl = req.targetUrl === undefined ? undefined : checkTargetUrl(req.targetUrl, deps.allowedCidrs, errors);
  const payload = req.payloadJson === undefined ? undefined : checkPayload(req.payloadJson, errors);
  const name = req.name === undefined ? undefined : checkName(req.name, errors);
  const headers = req.headersJson === undefined ? undefined : checkHeaders(req.headersJson, errors);
  // Checked over the stored settings (in clear), so a field left out stays as it is.
  const settings =
    req.settingsJson === undefined
      ? undefined
      : checkSettings(req.settingsJson, openSettings(sub.settings, deps.secrets, sub.id), deps.allowedCidrs, errors);
  checkEventScope(sub.event, resource, sub.applicationId, errors);
  throwIfAny(errors);
  if (event !== undefined && event !== sub.event) throw new AppError('conflict', 'event cannot be changed');

  let changed = false;
  const set = <
    K extends
      | 'resource'
      | 'targetUrl'
      | 'payload'
      | 'headers'
      | 'settings'
      | 'name'
      | 'enabled'
      | 'disabledReason'
      | 'consecutiveFailures'
      | 'firstFailureAt',
  >(
    key: K,
    value: Subscription[K],
  ) => {
    if (JSON.stringify(sub[key]) === JSON.stringify(value)) return;
    sub[key] = value;
    changed = true;
  };
  if (resource !== undefined) set('resource', resource);
  if (targetUrl !== undefined) set('targetUrl', targetUrl);
  if (payload !== undefined) set('payload', payload);
  if (name !== undefined) set('name', name);
  if (headers !== undefined) set('headers', sealHeaders(headers, deps.secrets, sub.id));
  // Sealing is randomised: compared in clear, so an unchanged setting is no change.
  if (
    settings !== undefined &&
    JSON.stringify(settings) !== JSON.stringify(openSettings(sub.settings, deps.secrets, sub.id))
  )
    set('settings', sealSettings(settings, deps.secrets, sub.id));
  if (req.enabled !== undefined && req.enabled !== sub.enabled) {
    set('enabled', req.enabled);
    if (req.enabled) {
      set('disabledReason', null);
      set('consecutiveFailures', 0);
      set('firstFailureAt', null);
    }
  }
  if (!changed) return sub;
  sub.updatedAt = new Date();
  // The change and its audit entry commit together.
  await em.transactional(async (tx) => {
    await tx.flush();
    await recordAlone(
      tx,
      { accountId: sub.accountId, action: 'webhook.update', target: webhookPath(sub.id), outcome: 'success' },
      audit,
    );
  });
  deps.changes.changed(sub, req.requestId);
  return sub;
}
