// docs/api-rules.md#applications: /v1/applications (also served under /rest/v1, where application hrefs point).
import type { Request, Router } from 'express';
import type { ApplicationMessage } from '@switchboard/proto';
import { applicationWrite, decodeBody } from './request-bodies.ts';
import { auditOptions, principal, writeOptions } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { type Handler, sendHref, sendJson } from './routing.ts';
import { accountItem, accountList } from './list-route.ts';
import { pathParams, type RouteDeclaration, registerDeclared, v1AndRest } from './declare.ts';
import { hrefHeaders, json, jsonBody, listHeaders, listParams, ref } from '../openapi-parts.ts';
import type { Hrefs } from '../hrefs.ts';
import type { ApplicationBody } from './response-bodies.ts';

export function applicationJson(a: ApplicationMessage, hrefs: Hrefs): ApplicationBody {
  // Absent fields are undefined, which JSON leaves out: one object shape for every application
  // (conditional spreads take V8's slow path, for every item of a list).
  return {
    href: hrefs.application(a.id),
    id: a.id,
    name: a.name,
    voiceUrl: a.voiceUrl || undefined,
    messagingUrl: a.messagingUrl || undefined,
    voiceFallbackUrl: a.voiceFallbackUrl || undefined,
    messagingFallbackUrl: a.messagingFallbackUrl || undefined,
    environment: hrefs.environment(a.environmentId),
    apiType: a.apiType as ApplicationBody['apiType'],
    platform: a.apiType as ApplicationBody['apiType'],
    userId: Number(a.accountId),
    user: hrefs.user(a.accountId),
    partition: a.partition || undefined,
  };
}

/** Without `platform`: used when the body has an apiType, which wins (its alias is then not read). */
const applicationWriteWithApiType = applicationWrite.omit({ platform: true });

/** The fields of a create or update body, type-checked; `platform` is an alias of apiType. */
function applicationFields(req: Request) {
  const apiTypeGiven = (req.body as { apiType?: unknown } | undefined)?.apiType != null;
  const { environment, platform, apiType, ...rest } = decodeBody(
    req,
    apiTypeGiven ? applicationWriteWithApiType : applicationWrite,
  ) as ReturnType<typeof decodeBody<typeof applicationWrite>>;
  const type = apiType ?? platform;
  return {
    ...rest,
    ...(environment !== undefined ? { environmentId: environment } : {}),
    ...(type !== undefined ? { apiType: type } : {}),
  };
}

/**
 * The handler of a create or an update: the body's fields (applicationFields, read first) to the
 * service by `write`, answered with the application's href.
 */
const writeHandler =
  (
    write: (
      applications: RouteDeps['applications'],
      fields: ReturnType<typeof applicationFields>,
      req: Request,
    ) => Promise<{ application?: ApplicationMessage | null }>,
  ) =>
  ({ hrefs, applications }: RouteDeps): Handler =>
  async (req, res) => {
    const { application } = await write(applications, applicationFields(req), req);
    sendHref(res, hrefs.application(application!.id));
  };

const applicationParams = pathParams({ id: 'Application id.' });
const tags = ['Applications'];

/** The application routes, declared once for the router and the OpenAPI document (in registration order). */
export const applicationRouteDeclarations: readonly RouteDeclaration<RouteDeps>[] = [
  {
    method: 'GET',
    path: '/applications',
    tags,
    request: { parameters: listParams },
    responses: {
      '200': json({ type: 'array', items: ref('Application') }, 'Applications in creation order.', listHeaders),
    },
    errors: 'read',
    moreErrors: ['400'],
    mounts: v1AndRest((p) => `list${p}Applications`, 'List applications'),
    handler: accountList({
      page: ({ applications }, request, options) => applications.listApplications(request, options),
      items: (page) => page.applications,
      toJson: (a, { hrefs }) => applicationJson(a, hrefs),
    }),
  },
  {
    method: 'POST',
    path: '/applications',
    tags,
    request: { body: jsonBody(ref('ApplicationWrite')) },
    responses: { '200': json(ref('Href'), 'Created.', hrefHeaders) },
    errors: 'write',
    idempotent: true,
    mounts: v1AndRest((p) => `create${p}Application`, 'Create an application'),
    handler: writeHandler((applications, fields, req) =>
      applications.createApplication({ ...fields, accountId: principal(req).accountId }, writeOptions(req)),
    ),
  },
  {
    method: 'GET',
    path: '/applications/:id',
    tags,
    request: { params: applicationParams },
    responses: { '200': json(ref('Application'), 'The application.') },
    errors: 'read',
    mounts: v1AndRest((p) => `get${p}Application`, 'Show an application'),
    handler: accountItem({
      params: ['id'],
      get: ({ applications }, request, options) => applications.getApplication(request, options),
      toJson: ({ application }, { hrefs }) => applicationJson(application!, hrefs),
    }),
  },
  {
    method: 'PUT',
    path: '/applications/:id',
    tags,
    request: { params: applicationParams, body: jsonBody(ref('ApplicationWrite')) },
    responses: { '200': json(ref('Href'), 'Updated.', hrefHeaders) },
    errors: 'write',
    mounts: v1AndRest((p) => `update${p}Application`, 'Update an application'),
    handler: writeHandler((applications, fields, req) =>
      applications.updateApplication(
        { ...fields, accountId: principal(req).accountId, id: String(req.params.id) },
        auditOptions(req),
      ),
    ),
  },
  {
    method: 'DELETE',
    path: '/applications/:id',
    tags,
    request: { params: applicationParams },
    responses: { '200': json(ref('Message'), 'Deleted.') },
    errors: 'read',
    mounts: v1AndRest((p) => `delete${p}Application`, 'Delete an application'),
    handler:
      ({ applications }) =>
      async (req, res) => {
        const id = String(req.params.id);
        await applications.deleteApplication({ accountId: principal(req).accountId, id }, auditOptions(req));
        sendJson(res, { message: `Application ${id} deleted` });
      },
  },
];

/** Registers these routes on the API router (one flat router: no nested router per resource on every request). */
export function applicationRoutes(router: Router, deps: RouteDeps): void {
  registerDeclared(router, deps, applicationRouteDeclarations);
}
