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
import { route, sendJson } from './routing.ts';

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

export function apiKeyRoutes(router: Router, deps: ApiKeyRouteDeps): void {
  const { hrefs, apiKeys, keys } = deps;

  route(router, '/api-keys', {
    GET: async (req, res) => {
      const { apiKeys: keys } = await apiKeys.listApiKeys({ accountId: principal(req).accountId }, callOptions(req));
      sendJson(
        res,
        keys.map((k) => keyBody(hrefs, k)),
      );
    },
    POST: async (req, res) => {
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
      const { apiKey, key } = await apiKeys.createApiKey(
        { accountId: principal(req).accountId, ...body },
        writeOptions(req),
      );
      const { href, id, name, scope, createdAt } = keyBody(hrefs, apiKey!);
      const created: ApiKeyCreatedBody = { href, id, name, scope, key, createdAt };
      noStore(res);
      sendJson(res, created);
    },
  });

  route(router, '/api-keys/:id', {
    GET: async (req, res) => {
      const { apiKey } = await apiKeys.getApiKey(
        { accountId: principal(req).accountId, id: String(req.params.id) },
        callOptions(req),
      );
      sendJson(res, keyBody(hrefs, apiKey!));
    },
    DELETE: async (req, res) => {
      const { accountId } = principal(req);
      const id = String(req.params.id);
      await apiKeys.revokeApiKey({ accountId, id }, auditOptions(req));
      // Refused here from the answer on; the other replicas hear it over NATS.
      keys.forget(accountId, [id]);
      res.status(204).end();
    },
  });
}
