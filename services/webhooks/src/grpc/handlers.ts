// Transport only: decode the request, run one use case, encode. The request id rides in the request.
import { listAuditEvents } from '@switchboard/db';
import type { GrpcServer } from '@switchboard/rpc';
import { webhooksProto } from '@switchboard/proto';
import { getAlert } from '../alerts/get-alert.ts';
import { listAlerts } from '../alerts/list-alerts.ts';
import type { Deps } from '../context.ts';
import { getDelivery } from '../deliveries/get-delivery.ts';
import { getDeliveryStats } from '../deliveries/delivery-stats.ts';
import { listDeliveries } from '../deliveries/list-deliveries.ts';
import { toMessage as deliveryMessage } from '../deliveries/mapper.ts';
import { getSession } from '../sessions/get-session.ts';
import { listSessions } from '../sessions/list-sessions.ts';
import { createSubscription } from '../subscriptions/create-subscription.ts';
import { deleteSubscription } from '../subscriptions/delete-subscription.ts';
import { getDeliveryTarget } from '../subscriptions/get-delivery-target.ts';
import { getSecret } from '../subscriptions/get-secret.ts';
import { getSubscription } from '../subscriptions/get-subscription.ts';
import { listSubscriptions } from '../subscriptions/list-subscriptions.ts';
import { toMessage } from '../subscriptions/mapper.ts';
import { cancelRecovery } from '../tools/cancel-recovery.ts';
import { type Match, matchSubscriptions } from '../subscriptions/match-subscriptions.ts';
import { rotateSecret } from '../subscriptions/rotate-secret.ts';
import { updateSubscription } from '../subscriptions/update-subscription.ts';
import { getRecovery } from '../tools/get-recovery.ts';
import { recoverSubscription } from '../tools/recover-subscription.ts';
import { resendDelivery } from '../tools/resend-delivery.ts';
import { testSubscription } from '../tools/test-subscription.ts';
import { createAlertTrigger } from '../triggers/create-alert-trigger.ts';
import { createUsageTrigger } from '../triggers/create-usage-trigger.ts';
import { deleteTrigger } from '../triggers/delete-trigger.ts';
import { getAlertTrigger, getUsageTrigger, listAlertTriggers, listUsageTriggers } from '../triggers/read-triggers.ts';
import { getUsage } from '../usage/get-usage.ts';

export function registerHandlers(server: GrpcServer, deps: Deps): void {
  server.add(webhooksProto().WebhooksService.service, {
    CreateSubscription: async (req, ctx) => {
      const { subscription, secret } = await createSubscription(deps, { ...req, requestId: ctx.requestId }, ctx.audit);
      return { subscription: toMessage(subscription), secret };
    },
    GetSubscription: async (req) => ({ subscription: toMessage(await getSubscription(deps, req)) }),
    ListSubscriptions: async (req, ctx) => {
      const page = await listSubscriptions(deps, { ...req, requestId: ctx.requestId });
      return { subscriptions: page.items, nextCursor: page.nextCursor };
    },
    UpdateSubscription: async (req, ctx) => ({
      subscription: toMessage(await updateSubscription(deps, { ...req, requestId: ctx.requestId }, ctx.audit)),
    }),
    DeleteSubscription: async (req, ctx) => {
      await deleteSubscription(deps, { ...req, requestId: ctx.requestId }, ctx.audit);
      return {};
    },
    GetSecret: async (req, ctx) => ({ secret: await getSecret(deps, req, ctx.audit) }),
    RotateSecret: async (req, ctx) => ({
      secret: await rotateSecret(deps, { ...req, requestId: ctx.requestId }, ctx.audit),
    }),
    ListDeliveries: async (req, ctx) => {
      const page = await listDeliveries(deps, req, ctx.requestId);
      return { deliveries: page.items.map((d) => deliveryMessage(d)), nextCursor: page.nextCursor };
    },
    GetDelivery: async (req, ctx) => ({ delivery: await getDelivery(deps, req, ctx.requestId) }),
    TestSubscription: async (req, ctx) => testSubscription(deps, { ...req, requestId: ctx.requestId }, ctx.audit),
    ResendDelivery: async (req, ctx) => ({
      deliveryId: await resendDelivery(deps, { ...req, requestId: ctx.requestId }, ctx.audit),
    }),
    RecoverSubscription: async (req, ctx) => recoverSubscription(deps, { ...req, requestId: ctx.requestId }, ctx.audit),
    ListAuditEvents: async (req) => listAuditEvents(deps.orm.em, req),
    GetRecovery: async (req) => ({ recovery: await getRecovery(deps, req) }),
    CancelRecovery: async (req, ctx) => ({
      recovery: await cancelRecovery(deps, { ...req, requestId: ctx.requestId }, ctx.audit),
    }),
    ListSessions: async (req, ctx) => {
      const page = await listSessions(deps, req, ctx.requestId);
      return { sessions: page.items, nextCursor: page.nextCursor };
    },
    GetSession: async (req) => ({ session: await getSession(deps, req) }),
    GetDeliveryStats: async (req, ctx) => getDeliveryStats(deps, req, ctx.requestId),
    ListAlerts: async (req) => {
      const page = await listAlerts(deps, req);
      return { alerts: page.items, nextCursor: page.nextCursor };
    },
    GetAlert: async (req) => ({ alert: await getAlert(deps, req) }),
    CreateAlertTrigger: async (req, ctx) => ({
      trigger: await createAlertTrigger(deps, { ...req, requestId: ctx.requestId }, ctx.audit),
    }),
    ListAlertTriggers: async (req) => listAlertTriggers(deps, req),
    GetAlertTrigger: async (req) => ({ trigger: await getAlertTrigger(deps, req) }),
    DeleteAlertTrigger: async (req, ctx) => {
      await deleteTrigger('alert', deps, req, ctx.audit);
      return {};
    },
    GetUsage: async (req) => getUsage(deps, req),
    CreateUsageTrigger: async (req, ctx) => ({
      trigger: await createUsageTrigger(deps, { ...req, requestId: ctx.requestId }, ctx.audit),
    }),
    ListUsageTriggers: async (req) => listUsageTriggers(deps, req),
    GetUsageTrigger: async (req) => ({ trigger: await getUsageTrigger(deps, req) }),
    DeleteUsageTrigger: async (req, ctx) => {
      await deleteTrigger('usage', deps, req, ctx.audit);
      return {};
    },
    GetDeliveryTarget: async (req) => {
      const m = await getDeliveryTarget(deps, req);
      return matchedMessage(m);
    },
    MatchSubscriptions: async (req) => {
      const matches = await matchSubscriptions(deps, req);
      return {
        subscriptions: matches.map(matchedMessage),
      };
    },
  });
}

/** A matched subscription as the dispatcher reads it: secrets, headers and settings in clear. */
function matchedMessage(m: Match) {
  return {
    subscription: toMessage(m.subscription),
    secrets: m.secrets,
    headers: m.headers,
    settingsJson: Object.keys(m.settings).length > 0 ? JSON.stringify(m.settings) : undefined,
    cancelledRecoveries: m.cancelledRecoveries ?? [],
  };
}
