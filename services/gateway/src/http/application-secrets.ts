// An application's session signing secret (docs/events.md#signatures): read it, rotate it. Also under /rest/v1.
import type { Router } from 'express';
import { auditOptions, principal, writeOptions } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { noStore, requireFull } from './exposure.ts';
import { route, sendJson } from './routing.ts';

export function applicationSecretRoutes(router: Router, deps: RouteDeps): void {
  const { applications } = deps;

  route(router, '/applications/:id/secret', {
    GET: async (req, res) => {
      requireFull(req);
      const { secret } = await applications.getApplicationSecret(
        { accountId: principal(req).accountId, id: String(req.params.id) },
        auditOptions(req),
      );
      noStore(res);
      sendJson(res, { secret });
    },
  });

  route(router, '/applications/:id/secret/rotate', {
    POST: async (req, res) => {
      const { secret } = await applications.rotateApplicationSecret(
        { accountId: principal(req).accountId, id: String(req.params.id) },
        writeOptions(req),
      );
      noStore(res);
      sendJson(res, { secret });
    },
  });
}
