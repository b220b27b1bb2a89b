// Resources that application responses link to: /rest/v1/users/:id and /rest/v1/environments/:id.
import type { Router } from 'express';
import { isEnvironmentId } from '@switchboard/events';
import { AppError } from '@switchboard/errors';
import type { AccountMessage } from '@switchboard/proto';
import type { Hrefs } from '../hrefs.ts';
import { callOptions, principal } from './context.ts';
import type { RouteDeps } from './deps.ts';
import type { UserBody } from './response-bodies.ts';
import { sendJson } from './routing.ts';
import { pathParams, type RouteDeclaration, registerDeclared } from './declare.ts';

/** An account as the API answers it: the user of the credentials. */
export function userJson(a: AccountMessage, hrefs: Hrefs): UserBody {
  return { href: hrefs.user(a.id), id: Number(a.id), username: a.username, createdAt: a.createdAt };
}

const userRef = { $ref: '#/components/schemas/User' };
const environmentRef = { $ref: '#/components/schemas/Environment' };
const idParam = (description: string) => pathParams({ id: description });
const environmentId = idParam('Environment id: 1 Production, 2 Development.');

/** The linked-resource routes, declared once for the router and the OpenAPI document. */
export const accountRouteDeclarations: readonly RouteDeclaration<RouteDeps>[] = [
  {
    method: 'GET',
    path: '/users/:id',
    tags: ['Linked resources'],
    responses: {
      '200': {
        description: 'The user of the credentials.',
        headers: {},
        content: { 'application/json': { schema: userRef } },
      },
    },
    errors: 'read',
    mounts: [
      {
        prefix: '/rest/v1',
        operationId: 'getUser',
        summary: 'Show your user, by id or username',
        params: idParam('Your user id or your username; anyone else is 404.'),
      },
      {
        prefix: '/v1',
        operationId: 'getV1User',
        summary: 'Show your user (the /v1 form of the href), by id or username',
        params: idParam('Your user id or your username (the Ruby Tropo client asks by username); anyone else is 404.'),
      },
    ],
    handler:
      ({ accounts, hrefs }) =>
      async (req, res) => {
        const me = principal(req);
        // A user can read only itself, by id or by username (the Ruby Tropo client starts with
        // GET users/<username>); anyone else is "not found", never "forbidden".
        const asked = String(req.params.id);
        if (asked !== me.accountId && asked.toLowerCase() !== me.username.toLowerCase())
          throw AppError.notFound('user');
        const { account } = await accounts.getAccount({ id: me.accountId }, callOptions(req));
        sendJson(res, userJson(account!, hrefs));
      },
  },
  {
    method: 'GET',
    path: '/environments/:id',
    tags: ['Linked resources'],
    request: { params: environmentId },
    responses: {
      '200': {
        description: 'The environment.',
        headers: {},
        content: { 'application/json': { schema: environmentRef } },
      },
    },
    errors: 'read',
    mounts: [
      { prefix: '/rest/v1', operationId: 'getEnvironment', summary: 'Show an environment' },
      { prefix: '/v1', operationId: 'getV1Environment', summary: 'Show an environment (the /v1 form of the href)' },
    ],
    handler:
      ({ applications, hrefs }) =>
      async (req, res) => {
        const id = String(req.params.id);
        if (!isEnvironmentId(id)) throw AppError.notFound('environment');
        const { environment } = await applications.getEnvironment({ id }, callOptions(req));
        sendJson(res, {
          href: hrefs.environment(environment!.id),
          id: Number(environment!.id),
          name: environment!.name,
          billable: environment!.billable,
        });
      },
  },
];

/** Registers these routes on the API router (one flat router: no nested router per resource on every request). */
export function accountRoutes(router: Router, deps: RouteDeps): void {
  registerDeclared(router, deps, accountRouteDeclarations);
}
