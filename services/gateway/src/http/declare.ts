// Routes declared once: method, path, request (zod path parameters, query and header parameters, body),
// documented responses and handler. The same declaration registers the Express handlers (through
// `route`) and the operations of the OpenAPI document (through an @asteasolutions/zod-to-openapi
// registry; docs/decisions/0030-route-registry.md).
import type { OpenAPIRegistry, ResponseConfig, RouteConfig, ZodRequestBody } from '@asteasolutions/zod-to-openapi';
import type { Router } from 'express';
import { type ZodObject, type ZodString, z } from 'zod';
import {
  errors as problemAnswers,
  idempotencyKeyParam,
  pick,
  readErrors,
  type Parameter,
  type Schema,
  type Status,
  writeErrors,
} from '../openapi-parts.ts';
import { type Handler, route } from './routing.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** The shared problem answers of a read or a write (openapi-parts.ts). */
export type ErrorSet = 'read' | 'write';

/** How one mount of the route (one path prefix) appears in the document. */
export interface RouteMount {
  prefix: string;
  operationId: string;
  summary: string;
  /** Path parameters as documented under this prefix (their descriptions may differ per prefix). */
  params?: ZodObject;
  /** Answers that read differently under this prefix, over the declaration's. */
  responses?: Record<string, ResponseConfig>;
}

export interface RouteDeclaration<D> {
  method: Method;
  /** Express path, relative to the router (`/users/:id`); `/` is the prefix itself. */
  path: string;
  tags: string[];
  description?: string;
  request?: {
    params?: ZodObject;
    /** Query and header parameters, as OpenAPI parameter objects (the shared ones are in openapi-parts.ts). */
    parameters?: Parameter[];
    body?: ZodRequestBody;
  };
  /** Documented answers by status code, beside (and over) the shared problem answers named by `errors` and `moreErrors`. */
  responses: Record<string, ResponseConfig>;
  /** The shared error set, or exactly these shared problem answers (a route outside the API's authentication). */
  errors: ErrorSet | readonly Status[];
  /** Shared problem answers documented beside the error set (a read that checks its query: `400`). */
  moreErrors?: Status[];
  /** A POST that takes an `Idempotency-Key`: documents the header and the 422 of a reused key. */
  idempotent?: boolean;
  /** The operation's own security requirements (`[]`: no credential), instead of the document's. */
  security?: Record<string, string[]>[];
  mounts: RouteMount[];
  handler: (deps: D) => Handler;
}

/** The one mount of an operation served under `/v1` only. */
export function v1(operationId: string, summary: string): RouteMount[] {
  return [{ prefix: '/v1', operationId, summary }];
}

/** The `/v1` and `/rest/v1` mounts of an operation; the `/rest/v1` operationId has `Rest` (`listRestApplications`). */
export function v1AndRest(operationId: (rest: '' | 'Rest') => string, summary: string): RouteMount[] {
  return [
    { prefix: '/v1', operationId: operationId(''), summary },
    { prefix: '/rest/v1', operationId: operationId('Rest'), summary },
  ];
}

/** Path parameters, all strings, by name with their descriptions. */
export function pathParams(described: Record<string, string>): ZodObject<Record<string, ZodString>> {
  return z.object(
    Object.fromEntries(
      Object.entries(described).map(([name, description]) => [name, z.string().meta({ param: { description } })]),
    ),
  );
}

/** Registers the declared handlers, one `route` call per path in declaration order (405 with Allow for the rest). */
export function registerDeclared<D>(router: Router, deps: D, declarations: readonly RouteDeclaration<D>[]): void {
  const byPath = new Map<string, Partial<Record<Method, Handler>>>();
  for (const d of declarations) {
    const handlers = byPath.get(d.path) ?? {};
    handlers[d.method] = d.handler(deps);
    byPath.set(d.path, handlers);
  }
  for (const [path, handlers] of byPath) route(router, path, handlers);
}

const errorSets: Record<ErrorSet, Record<string, Schema>> = { read: readErrors, write: writeErrors };

/** Adds the declared operations, once per mount, to an OpenAPI registry (whatever their handlers' dependencies). */
export function documentDeclared(registry: OpenAPIRegistry, declarations: readonly RouteDeclaration<never>[]): void {
  for (const d of declarations) {
    const parameters = [...(d.request?.parameters ?? []), ...(d.idempotent ? [idempotencyKeyParam] : [])];
    // The route's own answers win over the shared ones of the same status.
    const responses = {
      ...(typeof d.errors === 'string' ? errorSets[d.errors] : pick(...d.errors)),
      ...pick(...(d.moreErrors ?? [])),
      ...(d.idempotent ? { '422': problemAnswers['422'] } : {}),
      ...d.responses,
    } as Record<string, ResponseConfig>;
    for (const m of d.mounts) {
      const params = m.params ?? d.request?.params;
      registry.registerPath({
        method: d.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete',
        path: d.path === '/' ? m.prefix : `${m.prefix}${d.path.replace(/:(\w+)/g, '{$1}')}`,
        tags: d.tags,
        summary: m.summary,
        ...(d.description !== undefined ? { description: d.description } : {}),
        operationId: m.operationId,
        ...(d.security ? { security: d.security } : {}),
        ...(parameters.length > 0 ? { parameters: parameters as RouteConfig['parameters'] } : {}),
        ...(params || d.request?.body
          ? { request: { ...(params ? { params } : {}), ...(d.request?.body ? { body: d.request.body } : {}) } }
          : {}),
        responses: m.responses ? { ...responses, ...m.responses } : responses,
      });
    }
  }
}
