// Tools customers run on their own endpoints (docs/events.md#operating-your-endpoints): a test
// send, resending one delivery, recovering every failed delivery of a window, and reading one
// attempt or a recovery task. Each POST is one call to the webhooks service (Idempotency-Key applies).
import type { Request, Router } from 'express';
import type { RecoveryMessage } from '@switchboard/proto';
import type { Hrefs } from '../hrefs.ts';
import { callOptions, principal, writeOptions } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { decodeBody, webhookRecover, webhookTest } from './request-bodies.ts';
import type { RecoveryBody, TestResultBody } from './response-bodies.ts';
import { route, sendHref, sendJson } from './routing.ts';
import { deliveryJson } from './webhooks.ts';
import { readOnly } from './exposure.ts';

/**
 * Deadline of a test send: the webhooks service waits for a dispatcher up to its
 * TEST_REPLY_TIMEOUT_MS (default 20 s, above the default delivery timeout of 15 s) and answers 504 then.
 */
const TEST_DEADLINE_MS = 60_000;

function recoveryJson(r: RecoveryMessage, hrefs: Hrefs): RecoveryBody {
  return {
    href: hrefs.recovery(r.subscriptionId, r.id),
    id: r.id,
    state: r.state as RecoveryBody['state'],
    total: r.total,
    sent: r.sent,
    failed: r.failed,
    skipped: r.skipped,
    since: r.since,
    until: r.until,
    createdAt: r.createdAt,
    completedAt: r.completedAt ?? null,
  };
}

export function deliveryToolRoutes(router: Router, deps: RouteDeps): void {
  const { hrefs, webhooks } = deps;
  const p = (req: Request, name: string) => String(req.params[name]);

  route(router, '/webhooks/:id/test', {
    POST: async (req, res) => {
      const { message } = req.body === undefined ? {} : decodeBody(req, webhookTest);
      const r = await webhooks.testSubscription(
        { accountId: principal(req).accountId, id: p(req, 'id'), ...(message !== undefined ? { message } : {}) },
        { ...writeOptions(req), timeoutMs: TEST_DEADLINE_MS },
      );
      const result: TestResultBody = {
        status: r.status === 0 ? null : r.status,
        durationMs: r.durationMs,
        ...(r.error ? { error: r.error } : {}),
        href: hrefs.webhookDelivery(p(req, 'id'), r.deliveryId),
      };
      sendJson(res, result);
    },
  });

  /** The delivery a path names, under a subscription (`:id`) or under an application (`:appId`). */
  const deliveryOf = (req: Request) => ({
    accountId: principal(req).accountId,
    subscriptionId: req.params.id === undefined ? '' : p(req, 'id'),
    applicationId: req.params.appId === undefined ? '' : p(req, 'appId'),
    deliveryId: p(req, 'deliveryId'),
  });
  const deliveryHref = (req: Request, deliveryId: string) =>
    req.params.appId === undefined
      ? hrefs.webhookDelivery(p(req, 'id'), deliveryId)
      : hrefs.applicationDelivery(p(req, 'appId'), deliveryId);

  for (const path of ['/webhooks/:id/deliveries/:deliveryId', '/applications/:appId/deliveries/:deliveryId']) {
    route(router, path, {
      GET: async (req, res) => {
        const { delivery } = await webhooks.getDelivery(deliveryOf(req), callOptions(req));
        sendJson(res, deliveryJson(delivery!, true, readOnly(req)));
      },
    });
    route(router, `${path}/resend`, {
      POST: async (req, res) => {
        const { deliveryId } = await webhooks.resendDelivery(deliveryOf(req), writeOptions(req));
        sendHref(res, deliveryHref(req, deliveryId), {}, 202);
      },
    });
  }

  route(router, '/webhooks/:id/recover', {
    POST: async (req, res) => {
      const body = decodeBody(req, webhookRecover);
      const status = body.status ?? body.outcome;
      const { recovery, matched, skipped } = await webhooks.recoverSubscription(
        {
          accountId: principal(req).accountId,
          id: p(req, 'id'),
          since: body.since ?? '',
          ...(body.until !== undefined ? { until: body.until } : {}),
          ...(status !== undefined && status !== null ? { status } : {}),
          ...(body.event !== undefined && body.event !== null ? { event: body.event } : {}),
          ...(body.statusFrom !== undefined && body.statusFrom !== null ? { statusFrom: body.statusFrom } : {}),
          ...(body.statusTo !== undefined && body.statusTo !== null ? { statusTo: body.statusTo } : {}),
          messageIds: body.messageId ?? [],
          sessionIds: body.sessionId ?? [],
          dryRun: body.dryRun === true,
        },
        writeOptions(req),
      );
      if (body.dryRun) {
        sendJson(res, { dryRun: true, matched, skipped });
        return;
      }
      sendHref(res, hrefs.recovery(p(req, 'id'), recovery!.id), {}, 202);
    },
  });

  route(router, '/webhooks/:id/recoveries/:taskId', {
    GET: async (req, res) => {
      const { recovery } = await webhooks.getRecovery(
        { accountId: principal(req).accountId, subscriptionId: p(req, 'id'), taskId: p(req, 'taskId') },
        callOptions(req),
      );
      sendJson(res, recoveryJson(recovery!, hrefs));
    },
    DELETE: async (req, res) => {
      const { recovery } = await webhooks.cancelRecovery(
        { accountId: principal(req).accountId, subscriptionId: p(req, 'id'), taskId: p(req, 'taskId') },
        writeOptions(req),
      );
      sendJson(res, recoveryJson(recovery!, hrefs));
    },
  });
}
