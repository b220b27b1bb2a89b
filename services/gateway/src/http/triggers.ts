// Alert triggers, usage and usage triggers (docs/api.md#alert-triggers, #usage, #usage-triggers):
// the webhooks service keeps them; the gateway checks the bodies' types and serialises.
import type { Request, Router } from 'express';
import { USAGE_CATEGORIES } from '@switchboard/events';
import type { AlertTrigger__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/AlertTrigger';
import type { UsageTrigger__Output } from '@switchboard/proto/generated/switchboard/webhooks/v1/UsageTrigger';
import { auditOptions, callOptions, principal, writeOptions } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { decodeBody } from './request-bodies.ts';
import { type Handler, queryString, queryStrings, sendJson } from './routing.ts';
import { accountItem, accountList } from './list-route.ts';
import { pathParams, type RouteDeclaration, registerDeclared, v1 } from './declare.ts';
import { hrefHeaders, json, jsonBody, listHeaders, listParams, ref } from '../openapi-parts.ts';
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

const id = (req: Request) => String(req.params.id);

/** The handler of a trigger's creation (`create` decodes the body and asks the service): the trigger, with its Location. */
function createHandler<T>(
  create: (deps: RouteDeps, req: Request) => Promise<T>,
  toJson: (trigger: T, base: string) => { href: string },
): (deps: RouteDeps) => Handler {
  return (deps) => async (req, res) => {
    const json = toJson(await create(deps, req), deps.hrefs.base);
    res.setHeader('Location', json.href);
    sendJson(res, json);
  };
}

/** The handler of a trigger's deletion (`what`: "Alert trigger"), answered with a message naming it. */
function removeHandler(
  what: string,
  remove: (
    webhooks: RouteDeps['webhooks'],
    request: { accountId: string; id: string },
    options: ReturnType<typeof auditOptions>,
  ) => Promise<unknown>,
): (deps: RouteDeps) => Handler {
  return ({ webhooks }) =>
    async (req, res) => {
      await remove(webhooks, { accountId: principal(req).accountId, id: id(req) }, auditOptions(req));
      sendJson(res, { message: `${what} ${id(req)} deleted` });
    };
}

/** What differs between the two trigger families: their document and their handlers. */
interface TriggerKind {
  path: string;
  tag: string;
  /** The component of the trigger (`AlertTrigger`); its create body is `<name>Create`. */
  name: string;
  what: string;
  max: number;
  create: string;
  handlers: Record<'list' | 'create' | 'get' | 'remove', (deps: RouteDeps) => Handler>;
}

const kinds: TriggerKind[] = [
  {
    path: '/alert-triggers',
    tag: 'Alert triggers',
    name: 'AlertTrigger',
    what: 'alert trigger',
    max: 50,
    create:
      "An `alertTriggered` notification is sent when the alerts matching `code` (or any, `*`) and `applicationId` (or any) within the last `window` (counted per minute, the current minute included) reach `threshold`; then at most one more per window. Bad fields are a 400 naming each; an application that is not the account's is a 400 naming `applicationId`; the 51st trigger of an account is a 409 `limit_exceeded`.",
    handlers: {
      list: accountList({
        page: ({ webhooks }, request, options) => webhooks.listAlertTriggers(request, options),
        items: (page) => page.triggers,
        toJson: (t, { hrefs }) => alertTriggerJson(t, hrefs.base),
      }),
      create: createHandler(async ({ webhooks }, req) => {
        const body = decodeBody(req, alertTriggerCreate);
        const { trigger } = await webhooks.createAlertTrigger(
          { ...body, accountId: principal(req).accountId },
          writeOptions(req),
        );
        return trigger!;
      }, alertTriggerJson),
      get: accountItem({
        params: ['id'],
        get: ({ webhooks }: RouteDeps, request, options) => webhooks.getAlertTrigger(request, options),
        toJson: ({ trigger }, { hrefs }) => alertTriggerJson(trigger!, hrefs.base),
      }),
      remove: removeHandler('Alert trigger', (webhooks, request, options) =>
        webhooks.deleteAlertTrigger(request, options),
      ),
    },
  },
  {
    path: '/usage-triggers',
    tag: 'Usage',
    name: 'UsageTrigger',
    what: 'usage trigger',
    max: 100,
    create:
      "A signed `usageTriggered` notification is sent within 60 s of the account's usage of `category` reaching `threshold` in the period (`daily`: the UTC day; `monthly`: the UTC month; `none`: from its creation, once), once per period. Bad fields are a 400 naming each; the 101st trigger of an account is a 409 `limit_exceeded`.",
    handlers: {
      list: accountList({
        page: ({ webhooks }, request, options) => webhooks.listUsageTriggers(request, options),
        items: (page) => page.triggers,
        toJson: (t, { hrefs }) => usageTriggerJson(t, hrefs.base),
      }),
      create: createHandler(async ({ webhooks }, req) => {
        const { threshold, ...body } = decodeBody(req, usageTriggerCreate);
        const { trigger } = await webhooks.createUsageTrigger(
          {
            ...body,
            ...(threshold !== undefined ? { threshold: String(threshold) } : {}),
            accountId: principal(req).accountId,
          },
          writeOptions(req),
        );
        return trigger!;
      }, usageTriggerJson),
      get: accountItem({
        params: ['id'],
        get: ({ webhooks }: RouteDeps, request, options) => webhooks.getUsageTrigger(request, options),
        toJson: ({ trigger }, { hrefs }) => usageTriggerJson(trigger!, hrefs.base),
      }),
      remove: removeHandler('Usage trigger', (webhooks, request, options) =>
        webhooks.deleteUsageTrigger(request, options),
      ),
    },
  },
];

/** List, create, show and delete of one trigger family. */
function triggerDeclarations(k: TriggerKind): RouteDeclaration<RouteDeps>[] {
  const tags = [k.tag];
  const params = pathParams({ id: `The ${k.what}'s id.` });
  return [
    {
      method: 'GET',
      path: k.path,
      tags,
      request: { parameters: listParams },
      responses: { '200': json({ type: 'array', items: ref(k.name) }, `${k.what}s.`, listHeaders) },
      errors: 'read',
      moreErrors: ['400'],
      mounts: v1(`list${k.name}s`, `List the account's ${k.what}s, oldest first`),
      handler: k.handlers.list,
    },
    {
      method: 'POST',
      path: k.path,
      tags,
      description: k.create,
      request: { body: jsonBody(ref(`${k.name}Create`)) },
      responses: { '200': json(ref(k.name), 'Created.', hrefHeaders) },
      errors: 'write',
      idempotent: true,
      mounts: v1(`create${k.name}`, `Create an ${k.what} (at most ${k.max} per account)`),
      handler: k.handlers.create,
    },
    {
      method: 'GET',
      path: `${k.path}/:id`,
      tags,
      request: { params },
      responses: { '200': json(ref(k.name), `The ${k.what}.`) },
      errors: 'read',
      mounts: v1(`get${k.name}`, `Show an ${k.what}, with when it last fired`),
      handler: k.handlers.get,
    },
    {
      method: 'DELETE',
      path: `${k.path}/:id`,
      tags,
      request: { params },
      responses: { '200': json(ref('Message'), 'Deleted.') },
      errors: 'read',
      mounts: v1(`delete${k.name}`, `Delete an ${k.what}`),
      handler: k.handlers.remove,
    },
  ];
}

/** The trigger and usage routes, declared once for the router and the OpenAPI document (in registration order). */
export const triggerRouteDeclarations: readonly RouteDeclaration<RouteDeps>[] = [
  ...kinds.flatMap(triggerDeclarations),
  {
    method: 'GET',
    path: '/usage',
    tags: ['Usage'],
    description:
      'Read from the usage counts written with the records they count, so they equal the statistics of the same window. Every period of the window is listed, zeros included. An invalid value is a 400 naming the parameter.',
    request: {
      parameters: [
        { name: 'category', in: 'query', required: true, schema: { type: 'string', enum: [...USAGE_CATEGORIES] } },
        {
          name: 'period',
          in: 'query',
          schema: { type: 'string', enum: ['day', 'month'], default: 'day' },
          description: 'UTC days or UTC months.',
        },
        {
          name: 'since',
          in: 'query',
          schema: { type: 'string' },
          description:
            'First period, inclusive: YYYY-MM-DD (a month: YYYY-MM or its first day). Default: 30 days (12 months) before `until`.',
        },
        {
          name: 'until',
          in: 'query',
          schema: { type: 'string' },
          description:
            'First period after the window, exclusive. Default: the period after the current one. At most 400 periods.',
        },
        {
          name: 'applicationId',
          in: 'query',
          schema: { type: 'string' },
          description: "One application's usage only.",
        },
      ],
    },
    responses: { '200': json(ref('Usage'), 'The usage per period.') },
    errors: 'read',
    moreErrors: ['400'],
    mounts: v1('getUsage', "The account's usage of a category per UTC day or month"),
    handler:
      ({ webhooks }) =>
      async (req, res) => {
        const applicationId = queryString(req, 'applicationId');
        const u = await webhooks.getUsage(
          {
            accountId: principal(req).accountId,
            ...queryStrings(req, ['category', 'period', 'since', 'until']),
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
  },
];

/** Registers these routes on the API router. */
export function triggerRoutes(router: Router, deps: RouteDeps): void {
  registerDeclared(router, deps, triggerRouteDeclarations);
}
