// Addresses of applications (numbers, session tokens, SIP addresses), the exchanges and the free
// numbers of the inventory, on the Tropo REST API v1 paths its clients call.
import type { Request, Router } from 'express';
import { AppError } from '@switchboard/errors';
import type { AddressMessage } from '@switchboard/proto';
import type { Hrefs } from '../hrefs.ts';
import { auditOptions, callOptions, principal, writeOptions } from './context.ts';
import type { RouteDeps } from './deps.ts';
import { MASKED, noStore, readOnly } from './exposure.ts';
import { queryString, readList, sendHref, sendJson } from './routing.ts';
import { pathParams, type RouteDeclaration, registerDeclared, v1AndRest, v1 } from './declare.ts';
import { hrefHeaders, json, jsonBody, listHeaders, listParams, ref } from '../openapi-parts.ts';
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

const list = async ({ addresses, hrefs }: RouteDeps, req: Request, type: string | undefined) => {
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

const tags = ['Addresses'];
const addressList = { type: 'array', items: ref('Address') };
const applicationParams = pathParams({ id: 'Application id.' });
const typeParams = pathParams({ id: 'Application id.', type: 'number, token or sip.' });
const addressParams = pathParams({
  id: 'Application id.',
  type: 'number, token or sip.',
  address: 'The E.164 number ("+" optional), the token, or the SIP URI.',
});

/**
 * GET /addresses?available[&prefix=1407]: free numbers of the inventory (the Node Tropo client's
 * path), under /v1 and without a version prefix.
 */
const availableNumbers: RouteDeclaration<RouteDeps> = {
  method: 'GET',
  path: '/addresses',
  tags,
  request: {
    parameters: [
      {
        name: 'available',
        in: 'query',
        required: true,
        allowEmptyValue: true,
        schema: { type: 'string' },
        description: 'Present (no value needed).',
      },
      {
        name: 'prefix',
        in: 'query',
        schema: { type: 'string' },
        description: 'Leading digits of the E.164 numbers ("+" optional); all free numbers when absent.',
      },
      ...listParams,
    ],
  },
  responses: { '200': json(addressList, 'Free numbers in number order, without href.', listHeaders) },
  errors: 'read',
  moreErrors: ['400'],
  mounts: [
    { prefix: '', operationId: 'listAvailableNumbers', summary: 'List free numbers of the inventory' },
    { prefix: '/v1', operationId: 'listV1AvailableNumbers', summary: 'List free numbers of the inventory' },
  ],
  handler:
    ({ hrefs, addresses }) =>
    async (req, res) => {
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
};

/** What differs between the list of an application's addresses and the list of those of one type. */
const LISTS = {
  all: {
    path: '/applications/:id/addresses',
    params: applicationParams,
    description: 'Numbers first, then tokens and SIP addresses, each in the order added.',
    operationId: (p: string) => `list${p}Addresses`,
    summary: "List the application's addresses",
  },
  ofType: {
    path: '/applications/:id/addresses/:type',
    params: typeParams,
    description: 'Addresses of the type.',
    operationId: (p: string) => `list${p}AddressesOfType`,
    summary: "List the application's addresses of one type",
  },
};

/** The list of an application's addresses, of every type or of the type its path names. */
function listDeclaration(which: keyof typeof LISTS): RouteDeclaration<RouteDeps> {
  const { path, params, description, operationId, summary } = LISTS[which];
  return {
    method: 'GET',
    path,
    tags,
    request: { params },
    responses: { '200': json(addressList, description) },
    errors: 'read',
    moreErrors: ['400'],
    mounts: v1AndRest(operationId, summary),
    handler: (deps) => async (req, res) => {
      const items = await list(deps, req, which === 'ofType' ? String(req.params.type) : undefined);
      noStore(res);
      sendJson(res, items);
    },
  };
}

/** The address routes, declared once for the router and the OpenAPI document (in registration order). */
export const addressRouteDeclarations: readonly RouteDeclaration<RouteDeps>[] = [
  listDeclaration('all'),
  {
    method: 'POST',
    path: '/applications/:id/addresses',
    tags,
    request: { params: applicationParams, body: jsonBody(ref('AddressClaim')) },
    responses: { '200': json(ref('Href'), 'Added.', hrefHeaders) },
    errors: 'write',
    idempotent: true,
    mounts: v1AndRest((p) => `claim${p}Address`, 'Add an address: claim a number, or create a token or SIP address'),
    handler:
      ({ addresses, hrefs }) =>
      async (req, res) => {
        const { token: _t, username: _u, password: _p, ...fields } = decodeBody(req, addressClaim);
        const { address } = await addresses.claimAddress(
          { ...fields, accountId: principal(req).accountId, applicationId: String(req.params.id) },
          writeOptions(req),
        );
        // A token's href is the token.
        noStore(res);
        sendHref(res, hrefs.address(address!.applicationId, address!.type, address!.value));
      },
  },
  listDeclaration('ofType'),
  {
    method: 'GET',
    path: '/applications/:id/addresses/:type/:address',
    tags,
    request: { params: addressParams },
    responses: { '200': json(ref('Address'), 'The address.') },
    errors: 'read',
    moreErrors: ['400'],
    mounts: v1AndRest((p) => `get${p}Address`, 'Show an address'),
    handler:
      ({ addresses, hrefs }) =>
      async (req, res) => {
        const { address } = await addresses.getAddress(
          { ...key(req), applicationId: String(req.params.id) },
          callOptions(req),
        );
        noStore(res);
        sendJson(res, addressJson(address!, hrefs, readOnly(req)));
      },
  },
  {
    // Tropo's move: POST with no body to the address under the application it should belong to.
    method: 'POST',
    path: '/applications/:id/addresses/:type/:address',
    tags,
    request: { params: addressParams },
    responses: { '200': json(ref('Href'), 'Moved (or already there).', hrefHeaders) },
    errors: 'write',
    idempotent: true,
    mounts: v1AndRest((p) => `move${p}Address`, 'Move an address you own to this application (no body)'),
    handler:
      ({ addresses, hrefs }) =>
      async (req, res) => {
        const { address } = await addresses.moveAddress(
          { ...key(req), toApplicationId: String(req.params.id) },
          writeOptions(req),
        );
        noStore(res);
        sendHref(res, hrefs.address(address!.applicationId, address!.type, address!.value));
      },
  },
  {
    method: 'DELETE',
    path: '/applications/:id/addresses/:type/:address',
    tags,
    request: { params: addressParams },
    responses: { '200': json(ref('Message'), 'Released.') },
    errors: 'read',
    moreErrors: ['400'],
    mounts: v1AndRest((p) => `release${p}Address`, 'Release an address: a number goes back to the inventory'),
    handler:
      ({ addresses }) =>
      async (req, res) => {
        await addresses.releaseAddress({ ...key(req), applicationId: String(req.params.id) }, auditOptions(req));
        sendJson(res, { message: `Address ${String(req.params.type)} ${String(req.params.address)} released` });
      },
  },
  {
    method: 'GET',
    path: '/exchanges',
    tags,
    responses: { '200': json({ type: 'array', items: ref('Exchange') }, 'Exchanges by prefix.') },
    errors: 'read',
    mounts: v1('listExchanges', 'List the exchanges that have free numbers'),
    handler:
      ({ addresses }) =>
      async (req, res) => {
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
  },
  availableNumbers,
];

/** Registers these routes on the API router (served under /v1 and /rest/v1). */
export function addressRoutes(router: Router, deps: RouteDeps): void {
  registerDeclared(router, deps, addressRouteDeclarations);
}

/** The free numbers' route at `path` of a router (the root of the one mounted at /addresses). */
export function availableNumbersRoute(router: Router, deps: RouteDeps, path: string): void {
  registerDeclared(router, deps, [{ ...availableNumbers, path }]);
}
