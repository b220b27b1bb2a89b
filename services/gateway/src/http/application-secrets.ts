// An application's session signing secret (docs/events.md#signatures): read it, rotate it. Also under /rest/v1.
import type { Router } from 'express';
import type { RouteDeps } from './deps.ts';
import { secretHandler } from './secret-route.ts';
import { pathParams, type RouteDeclaration, registerDeclared, v1AndRest } from './declare.ts';
import { json, noStoreHeader, ref } from '../openapi-parts.ts';

const tags = ['Applications'];
const applicationParams = pathParams({ id: 'Application id.' });

/** The session signing secret routes, declared once for the router and the OpenAPI document. */
export const applicationSecretRouteDeclarations: readonly RouteDeclaration<RouteDeps>[] = [
  {
    method: 'GET',
    path: '/applications/:id/secret',
    tags,
    description:
      'The `whsec_` secret (Standard Webhooks) that signs the session POSTs to this application. Each application has its own, created with it. Needs a `full` credential: a `read` API key gets 403 `insufficient_scope`. Answered with `Cache-Control: no-store`.',
    request: { params: applicationParams },
    responses: { '200': json(ref('Secret'), 'The current secret.', noStoreHeader) },
    errors: 'read',
    mounts: v1AndRest((p) => `get${p}ApplicationSecret`, "Read the application's session signing secret"),
    handler: secretHandler('read', ({ applications }: RouteDeps, request, options) =>
      applications.getApplicationSecret(request, options),
    ),
  },
  {
    method: 'POST',
    path: '/applications/:id/secret/rotate',
    tags,
    description:
      'Replaces the secret; for 24 h the previous one signs too (a second `v1,` signature), so receivers can switch without losing a message. No request body.',
    request: { params: applicationParams },
    responses: { '200': json(ref('Secret'), 'The new secret.', noStoreHeader) },
    errors: 'write',
    idempotent: true,
    mounts: v1AndRest(
      (p) => `rotate${p}ApplicationSecret`,
      'Rotate the session signing secret (the old one stays valid 24 h)',
    ),
    handler: secretHandler('rotate', ({ applications }: RouteDeps, request, options) =>
      applications.rotateApplicationSecret(request, options),
    ),
  },
];

/** Registers these routes on the API router (one flat router: no nested router per resource on every request). */
export function applicationSecretRoutes(router: Router, deps: RouteDeps): void {
  registerDeclared(router, deps, applicationSecretRouteDeclarations);
}
