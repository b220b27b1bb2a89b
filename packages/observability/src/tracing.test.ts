// The trace context the platform's HTTP and gRPC wrappers pass on, in one process with the SDK's
// in-memory exporter: a new trace the sampler does not record has no span and goes no further (the
// services behind start none of their own); a decision made upstream is honoured and passed on,
// an unsampled one (flag 00) too.
// test/tracing follows whole requests and events through the services.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { InMemorySpanExporter, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import * as grpc from '@grpc/grpc-js';
import {
  grpcClientSpan,
  startTracing,
  tracedGrpcCall,
  tracedHttpRequest,
  tracedPublish,
  type Tracing,
} from './tracing';

// One exporter a describe: stopping tracing stops its exporter.
let exporter = new InMemorySpanExporter();
const PATH = '/switchboard.test.v1.TestService/Get';

/** Tracing with a new exporter and `env`, started before the describe block's tests and shut down after them. */
function useTracing(env: Record<string, string>): void {
  let tracing: Tracing | undefined;
  beforeAll(async () => {
    exporter = new InMemorySpanExporter();
    tracing = await startTracing({ serviceName: 'test', exporter, env });
  });
  afterAll(async () => tracing?.shutdown());
}
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A request to the gateway's server as far as tracedHttpRequest reads it, and its response. */
function exchange(headers: Record<string, string> = {}): { req: IncomingMessage; res: ServerResponse & EventEmitter } {
  const req = {
    method: 'GET',
    url: '/v1/things/1',
    headers,
    httpVersion: '1.1',
    socket: { remoteAddress: '127.0.0.1' },
  } as unknown as IncomingMessage;
  const res = Object.assign(new EventEmitter(), {
    statusCode: 200,
    writableFinished: true,
  }) as unknown as ServerResponse & EventEmitter;
  return { req, res };
}

/** Serves a request with tracedHttpRequest; the handler makes one gRPC call. Returns that call's metadata and whether a span was active. */
function serveRequest(headers: Record<string, string> = {}): { metadata: grpc.Metadata; active: boolean } {
  const { req, res } = exchange(headers);
  const metadata = new grpc.Metadata();
  let active = false;
  tracedHttpRequest(req, res, () => {
    active = trace.getSpan(context.active()) !== undefined;
    grpcClientSpan(PATH, metadata)?.(0);
  });
  res.emit('close');
  return { metadata, active };
}

/** Serves a gRPC call with tracedGrpcCall; the handler makes one call further. Returns that call's metadata and whether a span was active. */
function serveCall(incoming: grpc.Metadata): { metadata: grpc.Metadata; active: boolean } {
  const metadata = new grpc.Metadata();
  let active = false;
  tracedGrpcCall(PATH, incoming, (end) => {
    active = trace.getSpan(context.active()) !== undefined;
    grpcClientSpan(PATH, metadata)?.(0);
    end(0);
  });
  return { metadata, active };
}

const traceparentOf = (metadata: grpc.Metadata) => String(metadata.get('traceparent')[0] ?? '');

/** Publishes outside any trace with tracedPublish, into headers of a map. Returns those headers and whether a span was active while publishing. */
async function publishAlone(): Promise<{ headers: Map<string, string>; active: boolean }> {
  const headers = new Map<string, string>();
  const made = {
    get: (k: string) => headers.get(k) ?? '',
    set: (k: string, v: string) => void headers.set(k, v),
    keys: () => [...headers.keys()],
  };
  let active = false;
  await tracedPublish(
    'events.test',
    undefined,
    () => made,
    async () => {
      active = trace.getSpan(context.active()) !== undefined;
    },
  );
  return { headers, active };
}

describe('when the sampler records no new trace (parentbased_traceidratio, 0)', () => {
  useTracing({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });

  it('when a request would start a trace the sampler turns down, then no span is made, and its gRPC calls carry no trace context', () => {
    exporter.reset();
    const { metadata, active } = serveRequest();
    expect(active).toBe(false);
    expect(metadata.getMap()).toEqual({});
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('when a message is published outside any trace, then the trace the sampler turned down travels in its headers (flag 00), with no span made or entered', async () => {
    exporter.reset();
    const { headers, active } = await publishAlone();
    expect(headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(active).toBe(false);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('when a service is called in a trace its caller did not sample, then it records nothing either and passes the same trace on', () => {
    exporter.reset();
    const caller = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
    const { metadata: sent } = serveRequest({ traceparent: caller });
    const behind = serveCall(sent);
    expect(behind.active).toBe(false);
    expect(traceparentOf(behind.metadata)).toBe(caller);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('when a request arrives in a trace its caller did not sample, then that trace is passed on, its tracestate and baggage too', () => {
    exporter.reset();
    const caller = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
    expect(traceparentOf(serveRequest({ traceparent: caller }).metadata)).toBe(caller);
    const { metadata } = serveRequest({ traceparent: caller, tracestate: 'vendor=1', baggage: 'tenant=a' });
    expect(traceparentOf(metadata)).toBe(caller);
    expect(metadata.get('tracestate')).toEqual(['vendor=1']);
    expect(metadata.get('baggage')).toEqual(['tenant=a']);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("when a request arrives in a trace its caller sampled, then the decision is honoured: spans under the caller's, and the calls behind record theirs", () => {
    exporter.reset();
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const served = serveRequest({ traceparent: `00-${traceId}-b7ad6b7169203331-01` });
    expect(served.active).toBe(true);
    const [, sentTrace, clientSpanId, flags] = TRACEPARENT.exec(traceparentOf(served.metadata)) ?? [];
    expect([sentTrace, flags]).toEqual([traceId, '01']);
    const behind = serveCall(served.metadata);
    expect(behind.active).toBe(true);
    const spans = exporter.getFinishedSpans();
    const server = spans.find((s) => s.attributes['http.request.method'] === 'GET')!;
    expect(server.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    const rpcServer = spans.find((s) => s.name === PATH.slice(1) && s.parentSpanContext?.spanId === clientSpanId);
    expect(rpcServer?.spanContext().traceId).toBe(traceId);
    expect(
      spans.every(
        (s) => s.spanContext().traceId === traceId && (s.spanContext().traceFlags & TraceFlags.SAMPLED) === 1,
      ),
    ).toBe(true);
  });

  it('when a traceparent is malformed or of another version, then it is read by the propagator as before: not followed', () => {
    exporter.reset();
    for (const bad of [
      '00-00000000000000000000000000000000-b7ad6b7169203331-00',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-00',
      'zz-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00',
    ]) {
      // A new trace of this process, not the caller's: not sampled at this ratio, so none goes on.
      expect(serveRequest({ traceparent: bad }).metadata.getMap()).toEqual({});
    }
    // A later version with more fields: followed by the propagator (flag 00 here).
    const later = '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-extra';
    expect(traceparentOf(serveRequest({ traceparent: later }).metadata)).toBe(
      '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00',
    );
  });
});

describe('when the sampler records every new trace (parentbased_always_on)', () => {
  useTracing({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' });

  it('when a message is published outside any trace, then a trace starts at the publisher: its producer span, in the headers (flag 01)', async () => {
    exporter.reset();
    const { headers, active } = await publishAlone();
    expect(active).toBe(true);
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('publish events.test');
    expect(headers.get('traceparent')).toBe(`00-${span!.spanContext().traceId}-${span!.spanContext().spanId}-01`);
  });

  it('when a service is called outside any trace, then it starts none of its own: it records nothing and its calls carry nothing', () => {
    exporter.reset();
    const behind = serveCall(new grpc.Metadata());
    expect(behind.active).toBe(false);
    expect(behind.metadata.getMap()).toEqual({});
    expect(exporter.getFinishedSpans()).toEqual([]);
    // A request, where traces start, is recorded: the check above is not a sampler that records nothing.
    const served = serveRequest();
    expect(served.active).toBe(true);
    expect(traceparentOf(served.metadata)).toMatch(/-01$/);
  });
});

describe('when the sampler records half the new traces (traceidratio, 0.5)', () => {
  useTracing({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' });

  it('when requests start traces, then half of them are recorded: those whose trace id the sampler accepts, under that trace id', () => {
    exporter.reset();
    const sampler = new TraceIdRatioBasedSampler(0.5);
    const sampled = (traceId: string) => sampler.shouldSample(context.active(), traceId).decision !== 0;
    // The calls of a request whose new trace was not sampled carry no traceparent.
    const sent = Array.from({ length: 200 }, () => traceparentOf(serveRequest().metadata))
      .filter((t) => t !== '')
      .map((t) => TRACEPARENT.exec(t)!);
    const recorded = new Set(exporter.getFinishedSpans().map((s) => s.spanContext().traceId));
    for (const [, traceId, , flags] of sent) {
      expect(flags).toBe('01');
      expect(sampled(traceId!)).toBe(true);
      expect(recorded.has(traceId!)).toBe(true);
    }
    // Every recorded trace went on to the call.
    expect(recorded.size).toBe(sent.length);
    // The decision is made once, on the trace id the trace keeps (were it drawn again for the span,
    // a quarter would be recorded): 100 expected, 70-130 more than 4 standard deviations wide.
    const count = sent.length;
    expect(count).toBeGreaterThanOrEqual(70);
    expect(count).toBeLessThanOrEqual(130);
  });

  it('when many traces start, then every trace id and span id is new (the ids are cut from a pool of random bytes, refilled as it runs out)', () => {
    // 2,000 requests draw 64,000 hex characters for their trace ids, and the 1,000-odd sampled ones
    // about 32,000 more for their spans': the pool (4 KiB, 8,192 characters) is refilled a dozen times.
    const sent = Array.from({ length: 2000 }, () => traceparentOf(serveRequest().metadata))
      .filter((t) => t !== '')
      .map((t) => TRACEPARENT.exec(t)!);
    expect(sent.length).toBeGreaterThan(800);
    const traceIds = sent.map(([, traceId]) => traceId!);
    const spanIds = sent.map(([, , spanId]) => spanId!);
    expect(new Set(traceIds).size).toBe(traceIds.length);
    expect(new Set(spanIds).size).toBe(spanIds.length);
    for (const id of [...traceIds, ...spanIds]) expect(id).not.toMatch(/^0+$/);
  });
});

describe('when the context manager carries the active trace (the default)', () => {
  useTracing({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' });

  /** Serves a call of a sampled trace whose handler waits before and after answering; what span was active at each point. */
  async function serveSlowCall(
    traceId: string,
  ): Promise<{ beforeAnswer?: string; afterAwait?: string; outside?: string }> {
    const incoming = new grpc.Metadata();
    incoming.set('traceparent', `00-${traceId}-${'1'.repeat(16)}-01`);
    const seen: { beforeAnswer?: string; afterAwait?: string; outside?: string } = {};
    await new Promise<void>((answered) =>
      tracedGrpcCall(PATH, incoming, (end) => {
        void (async () => {
          await new Promise((r) => setTimeout(r, 5));
          seen.afterAwait = trace.getSpan(context.active())?.spanContext().traceId;
          await Promise.resolve();
          seen.beforeAnswer = trace.getSpan(context.active())?.spanContext().traceId;
          end(0);
          answered();
        })();
      }),
    );
    seen.outside = await (async () => {
      await new Promise((r) => setTimeout(r, 1));
      return trace.getSpan(context.active())?.spanContext().traceId;
    })();
    return seen;
  }

  it('when handlers of two traces wait and answer in turn, then each keeps its trace until it answers, and work outside them has none', async () => {
    exporter.reset();
    const [a, b] = await Promise.all([serveSlowCall('a'.repeat(32)), serveSlowCall('b'.repeat(32))]);
    expect(a).toEqual({ afterAwait: 'a'.repeat(32), beforeAnswer: 'a'.repeat(32), outside: undefined });
    expect(b).toEqual({ afterAwait: 'b'.repeat(32), beforeAnswer: 'b'.repeat(32), outside: undefined });
    expect(
      exporter
        .getFinishedSpans()
        .map((s) => s.spanContext().traceId)
        .sort(),
    ).toEqual(['a'.repeat(32), 'b'.repeat(32)]);
  });

  it('when a request of a recorded trace reads its body, then what its route does after is still in its trace until the response closes', async () => {
    exporter.reset();
    const { req, res } = exchange({ traceparent: `00-${'c'.repeat(32)}-${'2'.repeat(16)}-01` });
    const inRoute = await new Promise<string | undefined>((resolve) =>
      tracedHttpRequest(req, res, () => {
        setTimeout(() => resolve(trace.getSpan(context.active())?.spanContext().traceId), 5);
      }),
    );
    res.emit('close');
    expect(inRoute).toBe('c'.repeat(32));
    expect(exporter.getFinishedSpans().map((s) => s.spanContext().traceId)).toEqual(['c'.repeat(32)]);
  });
});
