// Addresses of applications (numbers, session tokens, SIP addresses), the exchanges and the free
// numbers of the inventory, on the Tropo REST API v1 paths its clients call.
import type { Request, Router } from 'express';
import { AppError } from '@switchboard/errors';
import type { AddressMessage } from '@switchboard/proto';
import type { Hrefs } from '../hrefs.ts';
import { auditOptions, callOptions, principal, writeOptions } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { MASKED, noStore, readOnly } from './exposure.ts';
import { queryString, readList, route, sendHref, sendJson } from './routing.ts';
import { addressClaim, decodeBody } from './request-bodies.ts';
import type { AddressBody } from './response-bodies.ts';

/**
 * An address as the API shows it; free numbers (no application yet) have no href. `masked`: a
 * session token (a credential of the Session API) reads as `***`, in its href too (a `read` key).
 */
export function addressJson(a: AddressMessage, hrefs: Hrefs, masked = false): AddressBody {
  const hide = masked && a.type === 'token';
  return {
    ...(a.applicationId ? { href: hrefs.address(a.applicationId, a.type, hide ? MASKED : a.value) } : {}),
    type: a.type as AddressBody['type'],
    ...(a.number !== undefined ? { number: a.number } : {}),
    ...(a.displayNumber !== undefined ? { displayNumber: a.displayNumber } : {}),
    ...(a.prefix !== undefined ? { prefix: a.prefix } : {}),
    ...(a.city !== undefined ? { city: a.city } : {}),
    ...(a.state !== undefined ? { state: a.state } : {}),
    ...(a.country !== undefined ? { country: a.country } : {}),
    ...(a.smsEnabled !== undefined ? { smsEnabled: a.smsEnabled } : {}),
    ...(a.channel !== undefined ? { channel: a.channel as AddressBody['channel'] } : {}),
    ...(a.token !== undefined ? { token: hide ? MASKED : a.token } : {}),
    ...(a.address !== undefined ? { address: a.address } : {}),
  };
}

/** Registers these routes on the API router (served under /v1 and /rest/v1). */
export function addressRoutes(router: Router, deps: RouteDeps): void {
  const { hrefs, addresses } = deps;
  const list = async (req: Request, type: string | undefined) => {
    const { addresses: all } = await addresses.listAddresses(
      {
        accountId: principal(req).accountId,
        applicationId: String(req.params.id),
        ...(type !== undefined ? { type } : {}),
      },
      callOptions(req),
    );
    return all.map((a) => addressJson(a, hrefs, readOnly(req)));
  };
  const key = (req: Request) => ({
    accountId: principal(req).accountId,
    type: String(req.params.type),
    value: String(req.params.address),
  });

  route(router, '/applications/:id/addresses', {
    GET: async (req, res) => {
      const items = await list(req, undefined);
      noStore(res);
      sendJson(res, items);
    },
    POST: async (req, res) => {
      const { token: _t, username: _u, password: _p, ...fields } = decodeBody(req, addressClaim);
      const { address } = await addresses.claimAddress(
        { ...fields, accountId: principal(req).accountId, applicationId: String(req.params.id) },
        writeOptions(req),
      );
      // A token's href is the token.
      noStore(res);
      sendHref(res, hrefs.address(address!.applicationId, address!.type, address!.value));
    },
  });

  route(router, '/applications/:id/addresses/:type', {
    GET: async (req, res) => {
      const items = await list(req, String(req.params.type));
      noStore(res);
      sendJson(res, items);
    },
  });

  route(router, '/applications/:id/addresses/:type/:address', {
    GET: async (req, res) => {
      const { address } = await addresses.getAddress(
        { ...key(req), applicationId: String(req.params.id) },
        callOptions(req),
      );
      noStore(res);
      sendJson(res, addressJson(address!, hrefs, readOnly(req)));
    },
    // Tropo's move: POST with no body to the address under the application it should belong to.
    POST: async (req, res) => {
      const { address } = await addresses.moveAddress(
        { ...key(req), toApplicationId: String(req.params.id) },
        writeOptions(req),
      );
      noStore(res);
      sendHref(res, hrefs.address(address!.applicationId, address!.type, address!.value));
    },
    DELETE: async (req, res) => {
      await addresses.releaseAddress({ ...key(req), applicationId: String(req.params.id) }, auditOptions(req));
      sendJson(res, { message: `Address ${String(req.params.type)} ${String(req.params.address)} released` });
    },
  });

  route(router, '/exchanges', {
    GET: async (req, res) => {
      const { exchanges } = await addresses.listExchanges({}, callOptions(req));
      sendJson(
        res,
        exchanges.map((e) => ({
          prefix: e.prefix,
          city: e.city || null,
          state: e.state || null,
          country: e.country || null,
        })),
      );
    },
  });

  availableNumbersRoute(router, deps);
}

/**
 * GET /addresses?available[&prefix=1407]: free numbers of the inventory (the Node Tropo client's
 * path), at `path` of the router (the API router's /addresses, or the root of one mounted there).
 */
export function availableNumbersRoute(router: Router, deps: RouteDeps, path = '/addresses'): void {
  const { hrefs, addresses } = deps;
  route(router, path, {
    GET: async (req, res) => {
      if (req.query.available === undefined)
        throw AppError.invalid([
          { field: 'available', message: 'is required: this path lists free numbers (?available&prefix=...)' },
        ]);
      const prefix = queryString(req, 'prefix');
      const items = await readList(req, res, hrefs.base, async (limit, cursor) => {
        const page = await addresses.listAvailableNumbers({ prefix, limit, cursor }, callOptions(req));
        return { items: page.numbers, nextCursor: page.nextCursor };
      });
      sendJson(
        res,
        items.map((a) => addressJson(a, hrefs)),
      );
    },
  });
}
