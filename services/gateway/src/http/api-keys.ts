// API keys of the caller's account: create (the key is answered this once), list, read, revoke.
import type { Router } from 'express';
import type { ApiKeyMessage, ApiKeysClient } from '@switchboard/proto';
import { requestTrace } from '@switchboard/observability/tracing';
import type { Authenticator } from '../auth.ts';
import type { ApiKeyVerifier } from '../auth/api-keys.ts';
import type { Hrefs } from '../hrefs.ts';
import { auditOptions, callOptions, principal, writeOptions } from './context.ts';
import { noStore } from './exposure.ts';
import { apiKeyCreate, decodeFields } from './request-bodies.ts';
import type { ApiKeyBody, ApiKeyCreatedBody } from './response-bodies.ts';
import { sendJson } from './routing.ts';
import { accountItem } from './list-route.ts';
import { pathParams, type RouteDeclaration, registerDeclared, v1 } from './declare.ts';
import { hrefHeaders, json, jsonBody, noStoreHeader, ref } from '../openapi-parts.ts';

export interface ApiKeyRouteDeps {
  hrefs: Hrefs;
  apiKeys: ApiKeysClient;
  /** The gateway's verified keys: a revoked one is forgotten before the answer. */
  keys: Pick<ApiKeyVerifier, 'forget'>;
  /** Checks the password of a key creation made with it (never from the cache). */
  passwords: Pick<Authenticator, 'authenticate'>;
}

function keyBody(hrefs: Hrefs, k: ApiKeyMessage): ApiKeyBody {
  return {
    href: hrefs.apiKey(k.id),
    id: k.id,
    name: k.name,
    scope: k.scope as ApiKeyBody['scope'],
    prefix: k.prefix,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt || null,
  };
}

const tags = ['Credentials'];
const keyParams = pathParams({ id: 'API key id (ak_...).' });

/** The API key routes, declared once for the router and the OpenAPI document. */
export const apiKeyRouteDeclarations: readonly RouteDeclaration<ApiKeyRouteDeps>[] = [
  {
    method: 'GET',
    path: '/api-keys',
    tags,
    responses: { '200': json({ type: 'array', items: ref('ApiKey') }, 'Keys, oldest first.') },
    errors: 'read',
    mounts: v1('listApiKeys', "List the account's API keys (without the keys)"),
    handler:
      ({ hrefs, apiKeys }) =>
      async (req, res) => {
        const { apiKeys: keys } = await apiKeys.listApiKeys({ accountId: principal(req).accountId }, callOptions(req));
        sendJson(
          res,
          keys.map((k) => keyBody(hrefs, k)),
        );
      },
  },
  {
    method: 'POST',
    path: '/api-keys',
    tags,
    description:
      'The key (`sbk_` + 32 random bytes, base64url) is answered this once; only a keyed hash is stored. Use it as `Authorization: Bearer sbk_...`, or as Basic with the key id as username and the key as password. A `read` key may use every GET; anything else answers 403 `insufficient_scope`. 409 `limit_exceeded` beyond 50 keys.',
    request: { body: jsonBody(ref('ApiKeyCreate')) },
    responses: {
      '200': json(ref('ApiKeyCreated'), 'Created; the key is shown only here.', { ...hrefHeaders, ...noStoreHeader }),
    },
    errors: 'write',
    idempotent: true,
    mounts: v1('createApiKey', 'Create an API key (at most 50 per account)'),
    handler: (deps) => async (req, res) => {
      const body = decodeFields(req, apiKeyCreate);
      // A new credential is handed out on the password checked now, never on the cache's memory of it.
      if (req.state.credential?.type === 'password')
        await deps.passwords.authenticate(
          req.headers.authorization,
          req.state.requestId,
          req.state.clientAddress ?? '',
          requestTrace(req),
          { fresh: true },
        );
      const { apiKey, key } = await deps.apiKeys.createApiKey(
        { accountId: principal(req).accountId, ...body },
        writeOptions(req),
      );
      const { href, id, name, scope, createdAt } = keyBody(deps.hrefs, apiKey!);
      const created: ApiKeyCreatedBody = { href, id, name, scope, key, createdAt };
      noStore(res);
      sendJson(res, created);
    },
  },
  {
    method: 'GET',
    path: '/api-keys/:id',
    tags,
    request: { params: keyParams },
    responses: { '200': json(ref('ApiKey'), 'The key.') },
    errors: 'read',
    mounts: v1('getApiKey', 'Show an API key (without the key)'),
    handler: accountItem({
      params: ['id'],
      get: ({ apiKeys }: ApiKeyRouteDeps, request, options) => apiKeys.getApiKey(request, options),
      toJson: ({ apiKey }, { hrefs }) => keyBody(hrefs, apiKey!),
    }),
  },
  {
    method: 'DELETE',
    path: '/api-keys/:id',
    tags,
    request: { params: keyParams },
    responses: { '204': { description: 'Revoked.' } },
    errors: 'read',
    mounts: v1('revokeApiKey', 'Revoke an API key: within a second no gateway accepts it'),
    handler:
      ({ apiKeys, keys }) =>
      async (req, res) => {
        const { accountId } = principal(req);
        const id = String(req.params.id);
        await apiKeys.revokeApiKey({ accountId, id }, auditOptions(req));
        // Refused here from the answer on; the other replicas hear it over NATS.
        keys.forget(accountId, [id]);
        res.status(204).end();
      },
  },
];

/** Registers these routes on the API router (one flat router: no nested router per resource on every request). */
export function apiKeyRoutes(router: Router, deps: ApiKeyRouteDeps): void {
  registerDeclared(router, deps, apiKeyRouteDeclarations);
}
