import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { handlerSpan, incomingContext } from './sampling.ts';
import { state } from './state.ts';

// HTTP requests to the gateway: a server span per request, made by the server itself (an
// instrumentation of node:http would wrap every request and response and compute its attributes).

/** The trace context of a request, as tracedHttpRequest keeps it for the request (see requestTrace). */
export type TraceContext = Context;

/**
 * The trace of each request tracedHttpRequest runs in one (not those it runs outside any trace). Kept
 * beside the requests rather than on them: a property added to some requests and not others gives
 * Node's and Express's code two shapes of request to handle, and a look-up of one a request lacks
 * walks its prototype chain (in-process: 0.9 against 1.3 us of tracing a request the sampler turns down).
 */
const requestTraces = new WeakMap<IncomingMessage, TraceContext>();

/**
 * The trace context tracedHttpRequest runs `req` in (its span's, or the unrecorded trace it is in):
 * what the request's own gRPC calls continue when they are given it (ClientCallOptions.trace), with
 * or without a context manager. Undefined without tracing.
 */
export function requestTrace(req: IncomingMessage): TraceContext | undefined {
  if (!state.started) return undefined;
  return requestTraces.get(req);
}

/**
 * Runs `handle` (the server's handler of the request) in a SERVER span whose parent is the trace
 * context the request's headers carry (W3C traceparent); the span ends when the response closes,
 * named by the Express route that answered (`GET /v1/applications/:id`) and with its status code.
 * The request keeps that context (requestTrace), and `handle` runs in it as the active context too
 * (where a context manager keeps one). `redact` masks credentials in the URL (path and query)
 * before it is recorded. `trustParent` says whether the request's own trace context (traceparent
 * and its sampled flag) is believed: when it says no (an internet client, not a trusted proxy),
 * the request starts a new trace that the root sampler decides on. Without tracing it just runs `handle`.
 */
export function tracedHttpRequest(
  req: IncomingMessage,
  res: ServerResponse,
  handle: () => void,
  redact: (url: string) => string = (url) => url,
  trustParent: (req: IncomingMessage) => boolean = () => true,
): void {
  if (!state.started) {
    handle();
    return;
  }
  const { headers } = req;
  const parent = !trustParent(req)
    ? ROOT_CONTEXT
    : incomingContext(
        (key) => {
          const value = headers[key];
          return typeof value === 'string' ? value : value === undefined ? undefined : value.join(',');
        },
        () => propagation.extract(ROOT_CONTEXT, headers),
      );
  const handler = handlerSpan(req.method ?? 'GET', SpanKind.SERVER, undefined, parent);
  // A new trace the sampler turned down: the request runs outside any trace, and its calls carry none.
  if (!handler) {
    handle();
    return;
  }
  const { ctx, span } = handler;
  if (span) recordHttpRequest(span, req, res, redact);
  requestTraces.set(req, ctx);
  // Express reads bodies with raw-body, which calls back in the context it was called in: what
  // follows the body (the routes) stays in the trace with no binding of the request's events.
  context.with(ctx, handle);
}

/** The attributes of the request on its span (OpenTelemetry's HTTP conventions), and its end with the response. */
function recordHttpRequest(
  span: Span,
  req: IncomingMessage,
  res: ServerResponse,
  redact: (url: string) => string,
): void {
  const method = req.method ?? 'GET';
  const url = redact(req.url ?? '/');
  const q = url.indexOf('?');
  const attributes: Attributes = {
    'http.request.method': method,
    'url.scheme': (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http',
    'url.path': q === -1 ? url : url.slice(0, q),
    'network.protocol.version': req.httpVersion,
  };
  if (q !== -1) attributes['url.query'] = url.slice(q + 1);
  if (req.socket.remoteAddress) attributes['client.address'] = req.socket.remoteAddress;
  const agent = req.headers['user-agent'];
  if (agent) attributes['user_agent.original'] = agent;
  span.setAttributes(attributes);
  res.once('close', () => {
    // Express leaves the route that answered on the request (`req.route`, relative to the router it
    // is in) and the router's mount path (`req.baseUrl`); requests no route matched keep the method as name.
    const { route, baseUrl } = req as { route?: { path?: unknown }; baseUrl?: unknown };
    if (typeof route?.path === 'string') {
      const template = `${typeof baseUrl === 'string' ? baseUrl : ''}${route.path}`;
      span.setAttribute('http.route', template);
      span.updateName(`${method} ${template}`);
    }
    span.setAttribute('http.response.status_code', res.statusCode);
    // A server span is an error on a 5xx answer (the client's mistakes are not the server's), or
    // when the connection closed before the answer was complete.
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    else if (!res.writableFinished)
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'connection closed before the response was complete' });
    span.end();
  });
}
