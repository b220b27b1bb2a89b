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
import { type AccountPageRequest, accountItem, accountList } from './list-route.ts';
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

type Webhooks = RouteDeps['webhooks'];
type Options = ReturnType<typeof callOptions>;
type IdRequest = { accountId: string; id: string };

/** The service calls of one trigger family, and its trigger as the API shows it. */
interface TriggerCalls<T> {
  /** "Alert trigger": the deletion's message names it so. */
  what: string;
  toJson: (trigger: T, base: string) => { href: string };
  list: (
    webhooks: Webhooks,
    request: AccountPageRequest<unknown>,
    options: Options,
  ) => Promise<{ triggers: T[]; nextCursor: string }>;
  /** Decodes the request's body and creates the trigger. */
  create: (webhooks: Webhooks, req: Request) => Promise<{ trigger?: T | null }>;
  get: (webhooks: Webhooks, request: IdRequest, options: Options) => Promise<{ trigger?: T | null }>;
  remove: (webhooks: Webhooks, request: IdRequest, options: ReturnType<typeof auditOptions>) => Promise<unknown>;
}

/**
 * The list, create, show and delete handlers of a trigger family: the account's triggers, a created
 * one answered with its Location, one by id, and a deletion answered with a message naming it.
 */
function triggerHandlers<T>(c: TriggerCalls<T>): TriggerKind['handlers'] {
  return {
    list: accountList({
      page: ({ webhooks }: RouteDeps, request, options) => c.list(webhooks, request, options),
      items: (page) => page.triggers,
      toJson: (t, { hrefs }) => c.toJson(t, hrefs.base),
    }),
    create:
      ({ hrefs, webhooks }) =>
      async (req, res) => {
        const { trigger } = await c.create(webhooks, req);
        const json = c.toJson(trigger!, hrefs.base);
        res.setHeader('Location', json.href);
        sendJson(res, json);
      },
    get: accountItem({
      params: ['id'],
      get: ({ webhooks }: RouteDeps, request, options) => c.get(webhooks, request, options),
      toJson: ({ trigger }, { hrefs }) => c.toJson(trigger!, hrefs.base),
    }),
    remove:
      ({ webhooks }) =>
      async (req, res) => {
        await c.remove(webhooks, { accountId: principal(req).accountId, id: id(req) }, auditOptions(req));
        sendJson(res, { message: `${c.what} ${id(req)} deleted` });
      },
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
    handlers: triggerHandlers({
      what: 'Alert trigger',
      toJson: alertTriggerJson,
      list: (webhooks, request, options) => webhooks.listAlertTriggers(request, options),
      create: (webhooks, req) =>
        webhooks.createAlertTrigger(
          { ...decodeBody(req, alertTriggerCreate), accountId: principal(req).accountId },
          writeOptions(req),
        ),
      get: (webhooks, request, options) => webhooks.getAlertTrigger(request, options),
      remove: (webhooks, request, options) => webhooks.deleteAlertTrigger(request, options),
    }),
  },
  {
    path: '/usage-triggers',
    tag: 'Usage',
    name: 'UsageTrigger',
    what: 'usage trigger',
    max: 100,
    create:
      "A signed `usageTriggered` notification is sent within 60 s of the account's usage of `category` reaching `threshold` in the period (`daily`: the UTC day; `monthly`: the UTC month; `none`: from its creation, once), once per period. Bad fields are a 400 naming each; the 101st trigger of an account is a 409 `limit_exceeded`.",
    handlers: triggerHandlers({
      what: 'Usage trigger',
      toJson: usageTriggerJson,
      list: (webhooks, request, options) => webhooks.listUsageTriggers(request, options),
      create: (webhooks, req) => {
        const { threshold, ...body } = decodeBody(req, usageTriggerCreate);
        return webhooks.createUsageTrigger(
          {
            ...body,
            ...(threshold !== undefined ? { threshold: String(threshold) } : {}),
            accountId: principal(req).accountId,
          },
          writeOptions(req),
        );
      },
      get: (webhooks, request, options) => webhooks.getUsageTrigger(request, options),
      remove: (webhooks, request, options) => webhooks.deleteUsageTrigger(request, options),
    }),
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
