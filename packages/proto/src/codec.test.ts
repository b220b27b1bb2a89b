// The static codecs against proto-loader's: the same bytes decode to the same objects, values that
// travel through them come back the same, and the services' calls work over real grpc-js.
import fc from 'fast-check';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { messageCodec } from './codec';
import { LOADER_OPTIONS, protoRoot } from './index';

const FILES = [
  'switchboard/applications/v1/applications.proto',
  'switchboard/webhooks/v1/webhooks.proto',
  'switchboard/rpc/v1/batch.proto',
  'grpc/health/v1/health.proto',
];

function messageTypes(ns: protobuf.NamespaceBase): protobuf.Type[] {
  const out: protobuf.Type[] = [];
  for (const n of ns.nestedArray) {
    if (n instanceof protobuf.Type) out.push(n);
    if (n instanceof protobuf.Namespace || n instanceof protobuf.Type)
      out.push(...messageTypes(n as protobuf.NamespaceBase));
  }
  return out;
}

/** proto-loader's codec of a message type: what grpc-js used before. */
function loaderCodec(file: string, fullName: string) {
  const type = protoRoot(file).lookupType(fullName);
  return {
    encode: (v: unknown) => Buffer.from(type.encode(type.fromObject(v as Record<string, unknown>)).finish()),
    decode: (b: Buffer) => type.toObject(type.decode(b), LOADER_OPTIONS),
  };
}

/** Arbitrary plain values for a message type, as a caller would write them (int64 as strings or numbers). */
function arbitrary(type: protobuf.Type, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const value = (f: protobuf.Field): fc.Arbitrary<unknown> => {
    const t = f.resolvedType;
    if (t instanceof protobuf.Type) return depth > 2 ? fc.constant({}) : arbitrary(t, depth + 1);
    if (t instanceof protobuf.Enum) return fc.constantFrom(...Object.keys(t.values), ...Object.values(t.values));
    switch (f.type) {
      case 'string':
        return fc.string({ unit: 'grapheme', maxLength: 60 });
      case 'bool':
        return fc.boolean();
      case 'int32':
        return fc.integer();
      case 'bytes':
        return fc.uint8Array({ maxLength: 20 }).map((a) => Buffer.from(a));
      case 'int64':
        return fc.oneof(
          fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
          fc.integer({ min: 0, max: 2 ** 40 }),
          fc.constantFrom('0', '9007199254740993', '-1', '123456789012345678'),
        );
      default:
        throw new Error(`no arbitrary for ${f.type}`);
    }
  };
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of type.fieldsArray) {
    f.resolve();
    const v = value(f);
    shape[f.name] = f.map
      ? fc.dictionary(
          fc.string({ maxLength: 8 }).filter((k) => k !== '__proto__'),
          v,
          { maxKeys: 3 },
        )
      : f.repeated
        ? fc.array(v, { maxLength: 3 })
        : v;
  }
  return fc.record(shape, { requiredKeys: [] });
}

describe('static message codecs', () => {
  for (const file of FILES) {
    const root = protoRoot(file);
    for (const type of messageTypes(root)) {
      it(`${type.fullName}: same bytes and same objects as proto-loader`, () => {
        const codec = messageCodec(type);
        expect(codec).toBeDefined();
        const oracle = loaderCodec(file, type.fullName.slice(1));
        fc.assert(
          fc.property(arbitrary(type), (value) => {
            const bytes = codec!.encode(value);
            const expected = oracle.encode(value);
            expect(oracle.decode(bytes)).toStrictEqual(oracle.decode(expected));
            expect(codec!.decode(expected)).toStrictEqual(oracle.decode(expected));
            expect(Object.keys(codec!.decode(expected) as object)).toEqual(Object.keys(oracle.decode(expected)));
          }),
          { numRuns: 200 },
        );
      });
    }
  }
});
