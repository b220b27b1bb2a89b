// The handlers of a list route (the account's items from a service, a page at a time: readList, one
// page with `?limit`, else the whole list, each answered as the route shows it) and of a read of one
// of the account's items by the ids in its path. The alert, session, trigger, application, API key
// and delivery routes share them.
import type { Request } from 'express';
import { callOptions, principal } from './context.ts';
import { noStore as sendNoStore } from './exposure.ts';
import { type Handler, readList, sendJson } from './routing.ts';
import type { RouteDeps } from './deps.ts';

/** What a list route asks its service for one page: the account and the page, with the route's own fields. */
export type AccountPageRequest<F> = { accountId: string; limit: number; cursor: string } & F;

export interface AccountList<D, F, P extends { nextCursor: string }, T> {
  /** The route's own fields of the service request (path ids, filters), read once before the list parameters. */
  fields?: (req: Request) => F;
  /** Asks the service for one page. */
  page: (deps: D, request: AccountPageRequest<F>, options: ReturnType<typeof callOptions>) => Promise<P>;
  /** The items of a page. */
  items: (page: P) => T[];
  /** One item of the answer. */
  toJson: (item: T, deps: D, req: Request) => unknown;
  /** The answer is never cached (it may carry a credential: exposure.ts). */
  noStore?: boolean;
}

/** The handler of a route listing the account's items (AccountList says how). */
export function accountList<D extends Pick<RouteDeps, 'hrefs'>, F, P extends { nextCursor: string }, T>(
  list: AccountList<D, F, P, T>,
): (deps: D) => Handler {
  return (deps) => async (req, res) => {
    const fields = (list.fields?.(req) ?? {}) as F;
    const items = await readList(req, res, deps.hrefs.base, async (limit, cursor) => {
      const page = await list.page(
        deps,
        { accountId: principal(req).accountId, limit, cursor, ...fields },
        callOptions(req),
      );
      return { items: list.items(page), nextCursor: page.nextCursor };
    });
    if (list.noStore) sendNoStore(res);
    sendJson(
      res,
      items.map((item) => list.toJson(item, deps, req)),
    );
  };
}

export interface AccountItem<D, K extends string, R> {
  /** The path parameters that name the item, passed to the service under the same names. */
  params: readonly K[];
  /** Asks the service for the item. */
  get: (
    deps: D,
    request: { accountId: string } & Record<K, string>,
    options: ReturnType<typeof callOptions>,
  ) => Promise<R>;
  /** The answer, from the service's. */
  toJson: (answer: R, deps: D, req: Request) => unknown;
  /** The answer is never cached (it may carry a credential: exposure.ts). */
  noStore?: boolean;
}

/** The handler of a route reading one of the account's items (AccountItem says how). */
export function accountItem<D, K extends string, R>(item: AccountItem<D, K, R>): (deps: D) => Handler {
  return (deps) => async (req, res) => {
    const ids = Object.fromEntries(item.params.map((name) => [name, String(req.params[name])])) as Record<K, string>;
    const answer = await item.get(deps, { accountId: principal(req).accountId, ...ids }, callOptions(req));
    if (item.noStore) sendNoStore(res);
    sendJson(res, item.toJson(answer, deps, req));
  };
}
