// Routes declared once: method, path, request schemas (zod), documented responses and handler. The
// same declaration registers the Express handlers (through `route`) and the operations of the OpenAPI
// document (through an @asteasolutions/zod-to-openapi registry; docs/decisions/0030-route-registry.md).
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { Router } from 'express';
import type { ZodObject } from 'zod';
import { type Handler, route } from './routing.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** The shared problem answers of a read or a write (defined with the components in openapi.ts). */
export type ErrorSet = 'read' | 'write';

/** How one mount of the route (one path prefix) appears in the document. */
export interface RouteMount {
  prefix: string;
  operationId: string;
  summary: string;
  /** Path parameters as documented under this prefix (their descriptions may differ per prefix). */
  params?: ZodObject;
}

export interface RouteDeclaration<D> {
  method: Method;
  /** Express path, relative to the API router (`/users/:id`). */
  path: string;
  tags: string[];
  request?: { params?: ZodObject };
  /** Documented answers by status code, beside the shared error answers named by `errors`. */
  responses: Record<string, ResponseConfig>;
  errors: ErrorSet;
  mounts: RouteMount[];
  handler: (deps: D) => Handler;
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

/** Adds the declared operations, once per mount, to an OpenAPI registry. */
export function documentDeclared<D>(
  registry: OpenAPIRegistry,
  declarations: readonly RouteDeclaration<D>[],
  errors: Record<ErrorSet, Record<string, ResponseConfig>>,
): void {
  for (const d of declarations) {
    for (const m of d.mounts) {
      const params = m.params ?? d.request?.params;
      registry.registerPath({
        method: d.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete',
        path: `${m.prefix}${d.path.replace(/:(\w+)/g, '{$1}')}`,
        tags: d.tags,
        summary: m.summary,
        operationId: m.operationId,
        ...(params ? { request: { params } } : {}),
        responses: { ...d.responses, ...errors[d.errors] },
      });
    }
  }
}
