// Alert triggers, usage and usage triggers (docs/api.md#alert-triggers, #usage, #usage-triggers):
// the webhooks service keeps them; the gateway checks the bodies' types and serialises.
import type { Request, Router } from 'express';
import type { AlertTrigger__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/AlertTrigger';
import type { UsageTrigger__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/UsageTrigger';
import { auditOptions, callOptions, principal, writeOptions } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { decodeBody } from './request-bodies.ts';
import { queryString, readList, route, sendJson } from './routing.ts';
import {
  alertTriggerCreate,
  usageTriggerCreate,
  type AlertTriggerBody,
  type UsageBody,
  type UsageTriggerBody,
} from './trigger-bodies.ts';

function alertTriggerJson(t: AlertTrigger__Output, base: string): AlertTriggerBody {
  return {
    href: `${base}/v1/alert-triggers/${t.id}`,
    id: t.id,
    code: t.code as AlertTriggerBody['code'],
    applicationId: t.applicationId ?? null,
    threshold: t.threshold,
    window: t.window,
    createdAt: t.createdAt,
    lastFiredAt: t.lastFiredAt ?? null,
    firedCount: t.firedCount,
  };
}

function usageTriggerJson(t: UsageTrigger__Output, base: string): UsageTriggerBody {
  return {
    href: `${base}/v1/usage-triggers/${t.id}`,
    id: t.id,
    category: t.category as UsageTriggerBody['category'],
    threshold: Number(t.threshold),
    recurring: t.recurring as UsageTriggerBody['recurring'],
    createdAt: t.createdAt,
    lastFiredAt: t.lastFiredAt ?? null,
    lastFiredPeriod: t.lastFiredPeriod ?? null,
  };
}

/** Registers these routes on the API router. */
export function triggerRoutes(router: Router, deps: RouteDeps): void {
  const { hrefs, webhooks } = deps;
  const base = hrefs.base;
  const id = (req: Request) => String(req.params.id);

  route(router, '/alert-triggers', {
    GET: async (req, res) => {
      const list = await readList(req, res, base, async (limit, cursor) => {
        const page = await webhooks.listAlertTriggers(
          { accountId: principal(req).accountId, limit, cursor },
          callOptions(req),
        );
        return { items: page.triggers, nextCursor: page.nextCursor };
      });
      sendJson(
        res,
        list.map((t) => alertTriggerJson(t, base)),
      );
    },
    POST: async (req, res) => {
      const body = decodeBody(req, alertTriggerCreate);
      const { trigger } = await webhooks.createAlertTrigger(
        { ...body, accountId: principal(req).accountId },
        writeOptions(req),
      );
      const json = alertTriggerJson(trigger!, base);
      res.setHeader('Location', json.href);
      sendJson(res, json);
    },
  });

  route(router, '/alert-triggers/:id', {
    GET: async (req, res) => {
      const { trigger } = await webhooks.getAlertTrigger(
        { accountId: principal(req).accountId, id: id(req) },
        callOptions(req),
      );
      sendJson(res, alertTriggerJson(trigger!, base));
    },
    DELETE: async (req, res) => {
      await webhooks.deleteAlertTrigger({ accountId: principal(req).accountId, id: id(req) }, auditOptions(req));
      sendJson(res, { message: `Alert trigger ${id(req)} deleted` });
    },
  });

  route(router, '/usage-triggers', {
    GET: async (req, res) => {
      const list = await readList(req, res, base, async (limit, cursor) => {
        const page = await webhooks.listUsageTriggers(
          { accountId: principal(req).accountId, limit, cursor },
          callOptions(req),
        );
        return { items: page.triggers, nextCursor: page.nextCursor };
      });
      sendJson(
        res,
        list.map((t) => usageTriggerJson(t, base)),
      );
    },
    POST: async (req, res) => {
      const { threshold, ...body } = decodeBody(req, usageTriggerCreate);
      const { trigger } = await webhooks.createUsageTrigger(
        {
          ...body,
          ...(threshold !== undefined ? { threshold: String(threshold) } : {}),
          accountId: principal(req).accountId,
        },
        writeOptions(req),
      );
      const json = usageTriggerJson(trigger!, base);
      res.setHeader('Location', json.href);
      sendJson(res, json);
    },
  });

  route(router, '/usage-triggers/:id', {
    GET: async (req, res) => {
      const { trigger } = await webhooks.getUsageTrigger(
        { accountId: principal(req).accountId, id: id(req) },
        callOptions(req),
      );
      sendJson(res, usageTriggerJson(trigger!, base));
    },
    DELETE: async (req, res) => {
      await webhooks.deleteUsageTrigger({ accountId: principal(req).accountId, id: id(req) }, auditOptions(req));
      sendJson(res, { message: `Usage trigger ${id(req)} deleted` });
    },
  });

  route(router, '/usage', {
    GET: async (req, res) => {
      const applicationId = queryString(req, 'applicationId');
      const u = await webhooks.getUsage(
        {
          accountId: principal(req).accountId,
          category: queryString(req, 'category'),
          period: queryString(req, 'period'),
          since: queryString(req, 'since'),
          until: queryString(req, 'until'),
          applicationId,
        },
        callOptions(req),
      );
      const body: UsageBody = {
        category: u.category as UsageBody['category'],
        period: u.period as UsageBody['period'],
        since: u.since,
        until: u.until,
        applicationId: applicationId || null,
        usage: u.periods.map((p) => ({ start: p.start, count: Number(p.count) })),
        total: Number(u.total),
      };
      sendJson(res, body);
    },
  });
}
