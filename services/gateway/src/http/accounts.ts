// Resources that application responses link to: /rest/v1/users/:id and /rest/v1/environments/:id.
import type { Router } from 'express';
import { isEnvironmentId } from '@switchboard/events';
import { AppError } from '@switchboard/errors';
import type { AccountMessage } from '@switchboard/proto';
import type { Hrefs } from '../hrefs.ts';
import { callOptions, principal } from './context.ts';
import type { RouteDeps } from './deps.ts';
import type { UserBody } from './response-bodies.ts';
import { route, sendJson } from './routing.ts';

/** An account as the API answers it: the user of the credentials. */
export function userJson(a: AccountMessage, hrefs: Hrefs): UserBody {
  return { href: hrefs.user(a.id), id: Number(a.id), username: a.username, createdAt: a.createdAt };
}

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
      sendJson(res, userJson(account!, hrefs));
    },
  });

  route(router, '/environments/:id', {
    GET: async (req, res) => {
      const id = String(req.params.id);
      if (!isEnvironmentId(id)) throw AppError.notFound('environment');
      const { environment } = await deps.applications.getEnvironment({ id }, callOptions(req));
      sendJson(res, {
        href: hrefs.environment(environment!.id),
        id: Number(environment!.id),
        name: environment!.name,
        billable: environment!.billable,
      });
    },
  });
}
