import type { Request } from 'express';
import { createHash } from 'node:crypto';
import { AppError } from '@switchboard/errors';
import type { ClientCallOptions } from '@switchboard/rpc';
import type { Logger } from '@switchboard/observability';
import { requestTrace } from '@switchboard/observability/tracing';
import type { Principal } from '../auth.ts';
import type { Credential } from '../auth/credential.ts';

/** Per-request values set by the middleware chain. */
export interface RequestState {
  requestId: string;
  log: Logger;
  principal?: Principal;
  /** What the principal authenticated with (auth/credential.ts). */
  credential?: Credential;
  /** The client's address (client-address.ts), once authentication looked at it. */
  clientAddress?: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    state: RequestState;
  }
}

/** The authenticated caller; the auth middleware guarantees it on every API route. */
export function principal(req: Request): Principal {
  const p = req.state.principal;
  if (!p) throw new Error('route reached without authentication');
  return p;
}

/**
 * Options for every gRPC call made on behalf of this request: its request id, and its trace (the
 * gateway keeps no active context, so each call is told which trace it continues).
 */
export function callOptions(req: Request): Pick<ClientCallOptions, 'requestId' | 'trace'> {
  return { requestId: req.state.requestId, trace: requestTrace(req) };
}

/**
 * callOptions plus who makes the request (its credential and address), for a call that changes
 * something: the owning service writes the audit entry in the change's transaction.
 */
export function auditOptions(req: Request): Pick<ClientCallOptions, 'requestId' | 'trace' | 'audit'> {
  const c = req.state.credential;
  if (!c) return callOptions(req);
  return {
    ...callOptions(req),
    audit: {
      actor: { type: c.type, id: c.id, ...(c.name ? { name: c.name } : {}) },
      ip: req.state.clientAddress ?? '',
      requestId: req.state.requestId,
    },
  };
}

/** Visible ASCII, 1 to 255 characters (IETF draft "The Idempotency-Key HTTP Header Field" leaves the format to the API). */
const IDEMPOTENCY_KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** A JSON value with object keys sorted: equal bodies hash equally whatever their key order or spacing. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * Options for the one gRPC call of a POST that writes: `callOptions` plus, when the request carries
 * an `Idempotency-Key`, the key, the account and a hash of the request (method, path without the
 * `/rest` prefix or a trailing slash, canonical body). The owning service answers a repeat from its
 * store (packages/db/src/idempotency.ts). A malformed key is a 400.
 */
export function writeOptions(req: Request): ClientCallOptions {
  const key = req.get('idempotency-key');
  if (key === undefined) return auditOptions(req);
  if (!IDEMPOTENCY_KEY_FORMAT.test(key))
    throw AppError.invalid([{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
  const path = `${req.baseUrl}${req.path}`.replace(/^\/rest(?=\/)/, '').replace(/\/+$/, '');
  const hash = createHash('sha256')
    .update(`${req.method} ${path}\n${canonicalJson(req.body ?? null)}`)
    .digest('hex');
  return { ...auditOptions(req), idempotency: { accountId: principal(req).accountId, key, hash } };
}
