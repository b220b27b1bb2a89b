// Static codecs for the gRPC messages: each message type gets an encoder and a decoder generated
// once from the .proto (protobufjs reflection), used in place of @grpc/proto-loader's dynamic ones.
//
// proto-loader encodes with `Type.encode(Type.fromObject(value))` and decodes with
// `Type.toObject(Type.decode(bytes), options)`: two copies of every message (and of every item of a
// list) on each side, and int64 fields through Long objects both ways. These codecs write the plain
// object straight to the wire and read the wire straight into the plain object, with the same
// conventions (the loader options of index.ts): int64 as decimal strings, enums as names, absent
// fields at their defaults (messages null, repeated [], maps {}), proto3 `optional` fields present
// only when set (with the oneof's virtual field naming them), and the same coercions on encode
// (numbers or strings for int64, names or numbers for enums, String()/Boolean()/|0 for scalars).
// Message types holding a field kind not handled here keep proto-loader's codec.
import protobuf from 'protobufjs';
import Long from 'long';
import { MessageWriter } from './writer.ts';

export interface MessageCodec {
  encode(value: unknown): Buffer;
  decode(bytes: Buffer): unknown;
}

type Generated = {
  /** Writes the message's fields (no length prefix). */
  write(value: Record<string, unknown>, w: MessageWriter): MessageWriter;
  /** Reads a message: to the reader's end, or `length` bytes from its position. */
  read(r: protobuf.Reader, length?: number): Record<string, unknown>;
};

const WIRE: Record<string, number> = {
  double: 1,
  float: 5,
  int32: 0,
  uint32: 0,
  sint32: 0,
  fixed32: 5,
  sfixed32: 5,
  int64: 0,
  uint64: 0,
  sint64: 0,
  fixed64: 1,
  sfixed64: 1,
  bool: 0,
  string: 2,
  bytes: 2,
};
const LONGS = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

/** Builds the codec of a resolved message type, or undefined when it holds a field this file does not handle. */
export function messageCodec(type: protobuf.Type): MessageCodec | undefined {
  const gen = generated(type, new Map());
  if (!gen) return undefined;
  return {
    encode(value: unknown): Buffer {
      if (Array.isArray(value))
        throw new Error(
          `Failed to serialize message: expected object with ${type.fullName} structure, got array instead`,
        );
      return gen.write(value as Record<string, unknown>, writer.reset()).finish();
    },
    decode: (bytes: Buffer) => gen.read(protobuf.Reader.create(bytes)),
  };
}

/** Encoding is synchronous: every message is written by this one writer, then copied out. */
const writer = new MessageWriter();

const cache = new WeakMap<protobuf.Type, Generated | null>();

function generated(type: protobuf.Type, building: Map<protobuf.Type, Generated>): Generated | undefined {
  const known = cache.get(type);
  if (known !== undefined) return known ?? undefined;
  const pending = building.get(type);
  if (pending) return pending; // a recursive type: the functions are filled in below
  const gen: Generated = { write: undefined!, read: undefined! };
  building.set(type, gen);
  const made = generate(type, gen, building);
  cache.set(type, made ? gen : null);
  return made ? gen : undefined;
}

function generate(type: protobuf.Type, self: Generated, building: Map<protobuf.Type, Generated>): boolean {
  type.resolveAll();
  const fields = type.fieldsArray.slice().sort((a, b) => a.id - b.id);
  const nested: Generated[] = [];
  const enums: protobuf.Enum[] = [];
  const ref = (t: protobuf.Type | protobuf.Enum): string | undefined => {
    if (t instanceof protobuf.Enum) return `E[${enums.push(t) - 1}]`;
    const g = generated(t, building);
    return g ? `T[${nested.push(g) - 1}]` : undefined;
  };
  // The kind of a value (a field's, or a map's value): its wire type and how to write and read it.
  const kind = (f: protobuf.Field) => {
    const t = f.resolvedType;
    if (t instanceof protobuf.Type) {
      const r = ref(t);
      return r && { wire: 2, message: r };
    }
    if (t instanceof protobuf.Enum) return { wire: 0, enumRef: ref(t)! };
    if (WIRE[f.type] === undefined) return undefined;
    return { wire: WIRE[f.type]! };
  };

  const w: string[] = ['var v, e, i, ks;'];
  const defaults: string[] = [];
  const repeatedDefaults: string[] = [];
  const mapDefaults: string[] = [];
  const cases: string[] = [];
  const oneofLocals: string[] = [];
  const oneofAssign: string[] = [];

  for (const f of fields) {
    const prop = JSON.stringify(f.name);
    const k = kind(f);
    if (!k) return false;
    // --- encode: the coercions of fromObject, then the wire
    const writeValue = (expr: string, tagged: boolean, wireTag: number): string => {
      const tag = tagged ? `w.uint32(${wireTag});` : '';
      if (k.message)
        return `if (typeof ${expr} !== 'object') throw TypeError(${JSON.stringify(`${type.fullName}.${f.name}: object expected`)}); ${tag}${k.message}.write(${expr}, w.fork()).ldelim();`;
      if (k.enumRef)
        return `e = typeof ${expr} === 'number' ? ${expr} : ${k.enumRef}.values[${expr}]; if (typeof e === 'number') { ${tag}w.int32(e); }`;
      switch (f.type) {
        case 'string':
          return `${tag}w.string(typeof ${expr} === 'string' ? ${expr} : String(${expr}));`;
        case 'bool':
          return `${tag}w.bool(Boolean(${expr}));`;
        case 'int32':
        case 'sint32':
        case 'sfixed32':
          return `${tag}w.${f.type}(${expr} | 0);`;
        case 'uint32':
        case 'fixed32':
          return `${tag}w.${f.type}(${expr} >>> 0);`;
        case 'double':
        case 'float':
          return `${tag}w.${f.type}(Number(${expr}));`;
        case 'bytes':
          return `${tag}w.bytes(${expr});`;
        default:
          return `${tag}w.${f.type}(long(${expr}, ${f.type.startsWith('u') || f.type === 'fixed64'}));`;
      }
    };
    const tagOf = (wire: number) => ((f.id << 3) | wire) >>> 0;
    if (f.map) {
      const mf = f as unknown as protobuf.MapField;
      if (mf.keyType !== 'string') return false;
      w.push(
        `v = d[${prop}]; if (v) { if (typeof v !== 'object') throw TypeError(${JSON.stringify(`${type.fullName}.${f.name}: object expected`)}); ks = Object.keys(v); for (i = 0; i < ks.length; ++i) { w.uint32(${tagOf(2)}).fork().uint32(10).string(ks[i]); ${writeValue('v[ks[i]]', true, (2 << 3) | k.wire)} w.ldelim(); } }`,
      );
    } else if (f.repeated) {
      const packed = f.packed && !k.message && k.wire !== 2;
      w.push(
        `v = d[${prop}]; if (v) { if (!Array.isArray(v)) throw TypeError(${JSON.stringify(`${type.fullName}.${f.name}: array expected`)}); if (v.length) {`,
      );
      if (packed)
        w.push(
          `w.uint32(${tagOf(2)}).fork(); for (i = 0; i < v.length; ++i) { ${writeValue('v[i]', false, 0)} } w.ldelim();`,
        );
      else w.push(`for (i = 0; i < v.length; ++i) { ${writeValue('v[i]', true, tagOf(k.wire))} }`);
      w.push('} }');
    } else {
      w.push(`v = d[${prop}]; if (v != null) { ${writeValue('v', true, tagOf(k.wire))} }`);
    }

    // --- decode: the shape of toObject({longs: String, enums: String, defaults: true, oneofs: true})
    const read = (): string => {
      if (k.message) return `${k.message}.read(r, r.uint32())`;
      if (k.enumRef) return `enumName(${k.enumRef}, r.int32())`;
      if (f.type === 'int64' || f.type === 'uint64') return `int64(r, ${f.type === 'uint64'})`;
      if (LONGS.has(f.type)) return `Long.prototype.toString.call(r.${f.type}())`;
      return `r.${f.type}()`;
    };
    if (f.map) {
      const mf = f as unknown as protobuf.MapField;
      const valueDefault = k.message ? 'null' : k.enumRef ? `${k.enumRef}.valuesById[0]` : defaultLiteral(mf.type);
      mapDefaults.push(`${prop}: {}`);
      cases.push(
        `case ${f.id}: { e = r.uint32() + r.pos; ks = ''; v = ${valueDefault}; while (r.pos < e) { i = r.uint32(); if (i >>> 3 === 1) ks = r.string(); else if (i >>> 3 === 2) v = ${read()}; else r.skipType(i & 7); } setKey(d[${prop}], ks, v); break; }`,
      );
    } else if (f.repeated) {
      repeatedDefaults.push(`${prop}: []`);
      if (!k.message && k.wire !== 2)
        cases.push(
          `case ${f.id}: if ((t & 7) === 2) { e = r.uint32() + r.pos; while (r.pos < e) d[${prop}].push(${read()}); } else d[${prop}].push(${read()}); break;`,
        );
      else cases.push(`case ${f.id}: d[${prop}].push(${read()}); break;`);
    } else if (f.partOf) {
      const local = `o${f.id}`;
      oneofLocals.push(`var ${local};`);
      cases.push(`case ${f.id}: ${local} = ${read()}; break;`);
      oneofAssign.push(
        `if (${local} !== undefined) { d[${prop}] = ${local}; d[${JSON.stringify(f.partOf.name)}] = ${prop}; }`,
      );
    } else {
      const def = k.message
        ? 'null'
        : k.enumRef
          ? JSON.stringify((f.resolvedType as protobuf.Enum).valuesById[f.typeDefault as number])
          : defaultLiteral(f.type);
      defaults.push(`${prop}: ${def}`);
      cases.push(`case ${f.id}: d[${prop}] = ${read()}; break;`);
    }
  }
  w.push('return w;');
  const readBody = [
    'var c = n === undefined ? r.len : r.pos + n, t, e, v, ks, i;',
    ...oneofLocals,
    `var d = {${[...repeatedDefaults, ...mapDefaults, ...defaults].join(', ')}};`,
    'while (r.pos < c) { t = r.uint32(); switch (t >>> 3) {',
    ...cases,
    'default: r.skipType(t & 7); break; } }',
    ...oneofAssign,
    'return d;',
  ].join('\n');
  const helpers = { T: nested, E: enums, Long, long, int64, enumName, setKey, EMPTY };
  const names = Object.keys(helpers);
  const values = Object.values(helpers);
  self.write = new Function(...names, `return function write(d, w) {\n${w.join('\n')}\n}`)(
    ...values,
  ) as Generated['write'];
  self.read = new Function(...names, `return function read(r, n) {\n${readBody}\n}`)(...values) as Generated['read'];
  return true;
}

/**
 * An absent bytes field's value: one empty Buffer for all (it has no bytes to change, and frozen no
 * properties either), where a fresh one per field cost a third of decoding a batch of calls.
 */
const EMPTY = Object.freeze(Buffer.alloc(0));

/** The toObject default of a scalar field, as a literal (the shared empty Buffer for bytes). */
function defaultLiteral(scalar: string): string {
  if (scalar === 'string') return "''";
  if (scalar === 'bool') return 'false';
  if (scalar === 'bytes') return 'EMPTY';
  if (LONGS.has(scalar)) return "'0'";
  return '0';
}

const SHORT_DECIMAL = /^-?\d{1,15}$/;

/** An int64 field's value as the writer takes it: a number when exact, else a Long (as fromObject makes it). */
function long(value: unknown, unsigned: boolean): number | Long {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && SHORT_DECIMAL.test(value)) return Number(value);
  const l = Long.fromValue(value as string);
  return l.unsigned === unsigned ? l : unsigned ? l.toUnsigned() : l.toSigned();
}

/** Reads a varint int64/uint64 as a decimal string, without a Long unless it is beyond 2^53. */
function int64(r: protobuf.Reader, unsigned: boolean): string {
  const buf = r.buf;
  let pos = r.pos;
  let lo = 0;
  let hi = 0;
  let b = 0;
  let done = false;
  for (let i = 0; i < 4; i++) {
    b = buf[pos++]!;
    lo = (lo | ((b & 127) << (i * 7))) >>> 0;
    if (b < 128) {
      done = true;
      break;
    }
  }
  if (!done) {
    b = buf[pos++]!;
    lo = (lo | ((b & 127) << 28)) >>> 0;
    hi = (b & 127) >> 4;
    if (b >= 128) {
      for (let i = 0; i < 5; i++) {
        b = buf[pos++]!;
        hi = (hi | ((b & 127) << (i * 7 + 3))) >>> 0;
        if (b < 128) {
          done = true;
          break;
        }
      }
      if (!done) throw Error('invalid varint encoding');
    }
  }
  if (pos > r.len) throw RangeError(`index out of range: ${r.pos} + 10 > ${r.len}`);
  r.pos = pos;
  if (hi === 0) return String(lo);
  if (hi < 0x200000) return String(hi * 4294967296 + lo);
  return Long.fromBits(lo | 0, hi | 0, unsigned).toString();
}

/** An enum value by name, or its number when the enum does not know it. */
function enumName(e: protobuf.Enum, n: number): string | number {
  const name = e.valuesById[n];
  return name === undefined ? n : name;
}

/** Sets a map entry (a key "__proto__" as an own property, as toObject does). */
function setKey(map: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
  else map[key] = value;
}
