// Reading OTLP/HTTP trace exports as a collector receives them (protobuf, the exporters' default,
// or JSON): what the tracing test's stand-in collector and the tracing benchmark's no-op one count.

/** A span of an export, as far as the tests look at it (kind as OTLP numbers it: 2 server, 3 client...). */
export interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** The parent span's id; empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: number;
}

/** The spans of an ExportTraceServiceRequest body; `contentType` tells protobuf from JSON. */
export function exportedSpans(body: Buffer, contentType: string | undefined): ExportedSpan[] {
  return contentType?.startsWith('application/json') ? fromJson(body) : fromProtobuf(body);
}

function fromJson(body: Buffer): ExportedSpan[] {
  const request = JSON.parse(body.toString('utf8')) as {
    resourceSpans: {
      resource: { attributes: { key: string; value: { stringValue?: string } }[] };
      scopeSpans: { spans: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number }[] }[];
    }[];
  };
  return request.resourceSpans.flatMap((rs) => {
    const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
    return rs.scopeSpans.flatMap((ss) =>
      ss.spans.map((s) => ({
        service,
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        name: s.name,
        kind: s.kind,
      })),
    );
  });
}

/**
 * The protobuf encoding, field by field (opentelemetry/proto/trace/v1): a request's resource_spans
 * (1) have a resource (1) whose attributes (1) are key (1) / value (2, a string_value 1) pairs, and
 * scope_spans (2) whose spans (2) have trace_id (1), span_id (2), parent_span_id (4), name (5) and kind (6).
 */
function fromProtobuf(body: Uint8Array): ExportedSpan[] {
  const spans: ExportedSpan[] = [];
  for (const [, resourceSpans] of fields(body, 1)) {
    let service = '';
    for (const [, resource] of fields(resourceSpans as Uint8Array, 1)) {
      for (const [, kv] of fields(resource as Uint8Array, 1)) {
        const parts = new Map(fields(kv as Uint8Array));
        if (text(parts.get(1)) === 'service.name') service = text(new Map(fields(parts.get(2) as Uint8Array)).get(1));
      }
    }
    for (const [, scopeSpans] of fields(resourceSpans as Uint8Array, 2)) {
      for (const [, span] of fields(scopeSpans as Uint8Array, 2)) {
        const f = new Map(fields(span as Uint8Array));
        spans.push({
          service,
          traceId: hex(f.get(1)),
          spanId: hex(f.get(2)),
          parentSpanId: hex(f.get(4)),
          name: text(f.get(5)),
          kind: Number(f.get(6) ?? 0),
        });
      }
    }
  }
  return spans;
}

const text = (v: Uint8Array | number | undefined) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : '');
const hex = (v: Uint8Array | number | undefined) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : '');

/** The fields of a protobuf message (numbered `only`, if given): varints as numbers, length-delimited ones as bytes. */
function fields(buf: Uint8Array, only?: number): [number, Uint8Array | number][] {
  const out: [number, Uint8Array | number][] = [];
  let i = 0;
  const varint = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = buf[i++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
  };
  while (i < buf.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    let value: Uint8Array | number;
    if (wire === 0) value = varint();
    else if (wire === 2) {
      const length = varint();
      value = buf.subarray(i, i + length);
      i += length;
    } else if (wire === 1 || wire === 5) {
      i += wire === 1 ? 8 : 4; // fixed64 and fixed32 (times, flags): not read
      continue;
    } else throw new Error(`unexpected protobuf wire type ${wire}`);
    if (only === undefined || field === only) out.push([field, value]);
  }
  return out;
}
