// Resources that application responses link to: /rest/v1/users/:id and /rest/v1/environments/:id.
import type { Router } from 'express';
import { isEnvironmentId } from '@switchboard/events';
import { AppError } from '@switchboard/platform';
import { callOptions, principal } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { route, sendJson } from './routing.ts';

/** Registers these routes on the API router (one flat router: no nested router per resource on every request). */
export function accountRoutes(router: Router, deps: RouteDeps): void {
  const { hrefs } = deps;

  route(router, '/users/:id', {
    GET: async (req, res) => {
      const me = principal(req);
      // A user can read only itself, by id or by username (the Ruby Tropo client starts with
      // GET users/<username>); anyone else is "not found", never "forbidden".
      const asked = String(req.params.id);
      if (asked !== me.accountId && asked.toLowerCase() !== me.username.toLowerCase()) throw AppError.notFound('user');
      const { account } = await deps.accounts.getAccount({ id: me.accountId }, callOptions(req));
      sendJson(res, { href: hrefs.user(account!.id), id: Number(account!.id), username: account!.username, createdAt: account!.createdAt });
    },
  });

  route(router, '/environments/:id', {
    GET: async (req, res) => {
      const id = String(req.params.id);
      if (!isEnvironmentId(id)) throw AppError.notFound('environment');
      const { environment } = await deps.applications.getEnvironment({ id }, callOptions(req));
      sendJson(res, { href: hrefs.environment(environment!.id), id: Number(environment!.id), name: environment!.name, billable: environment!.billable });
    },
  });

}
