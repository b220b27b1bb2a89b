// The writer of the static codecs (codec.ts): one reused buffer, strings of ASCII written in place,
// a nested message's length written after it (one byte reserved; moved when it needs more).
import protobuf from 'protobufjs';
import type Long from 'long';

const LongBits = protobuf.util.LongBits;

/** Writes one message at a time into a buffer it keeps between messages; `finish` copies the bytes out. */
export class MessageWriter {
  private buf = Buffer.allocUnsafe(4096);
  private pos = 0;
  /** Where each open nested message's reserved length byte is. */
  private readonly open: number[] = [];

  /** Starts a message (whatever an earlier one left, say by throwing). */
  reset(): this {
    this.pos = 0;
    this.open.length = 0;
    return this;
  }

  /** The message's bytes, copied; a buffer grown beyond 1 MiB for a large one is let go. */
  finish(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    if (this.buf.length > 1 << 20) this.buf = Buffer.allocUnsafe(4096);
    this.pos = 0;
    return out;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  uint32(value: number): this {
    return this.varint64(value >>> 0, 0);
  }

  int32(value: number): this {
    return value < 0 ? this.varint64(value >>> 0, 0xffffffff) : this.uint32(value);
  }

  sint32(value: number): this {
    return this.uint32(((value << 1) ^ (value >> 31)) >>> 0);
  }

  private varint64(lo: number, hi: number): this {
    this.room(10);
    const b = this.buf;
    let p = this.pos;
    while (hi) {
      b[p++] = (lo & 127) | 128;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 127) {
      b[p++] = (lo & 127) | 128;
      lo >>>= 7;
    }
    b[p++] = lo;
    this.pos = p;
    return this;
  }

  int64(value: number | Long): this {
    if (typeof value === 'number' && value >= 0 && value <= 0xffffffff) return this.uint32(value);
    const bits = LongBits.from(value);
    return this.varint64(bits.lo >>> 0, bits.hi >>> 0);
  }

  uint64(value: number | Long): this {
    return this.int64(value);
  }

  sint64(value: number | Long): this {
    const bits = LongBits.from(value).zzEncode();
    return this.varint64(bits.lo >>> 0, bits.hi >>> 0);
  }

  fixed64(value: number | Long): this {
    const bits = LongBits.from(value);
    this.room(8);
    this.buf.writeUInt32LE(bits.lo >>> 0, this.pos);
    this.buf.writeUInt32LE(bits.hi >>> 0, this.pos + 4);
    this.pos += 8;
    return this;
  }

  sfixed64(value: number | Long): this {
    return this.fixed64(value);
  }

  fixed32(value: number): this {
    this.room(4);
    this.pos = this.buf.writeUInt32LE(value >>> 0, this.pos);
    return this;
  }

  sfixed32(value: number): this {
    this.room(4);
    this.pos = this.buf.writeInt32LE(value | 0, this.pos);
    return this;
  }

  double(value: number): this {
    this.room(8);
    this.pos = this.buf.writeDoubleLE(value, this.pos);
    return this;
  }

  float(value: number): this {
    this.room(4);
    this.pos = this.buf.writeFloatLE(value, this.pos);
    return this;
  }

  bool(value: boolean): this {
    this.room(1);
    this.buf[this.pos++] = value ? 1 : 0;
    return this;
  }

  string(value: string): this {
    const n = value.length;
    // Up to 42 characters take at most 126 bytes: a one-byte length. ASCII is copied in place.
    if (n < 43) {
      this.room(1 + n);
      const b = this.buf;
      let p = this.pos + 1;
      for (let i = 0; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c > 127) return this.utf8(value);
        b[p++] = c;
      }
      b[this.pos] = n;
      this.pos = p;
      return this;
    }
    return this.utf8(value);
  }

  private utf8(value: string): this {
    const length = Buffer.byteLength(value);
    this.uint32(length);
    this.room(length);
    this.pos += this.buf.write(value, this.pos, length, 'utf8');
    return this;
  }

  /** Bytes, or a base64 string of them (as protobufjs takes them). */
  bytes(value: Uint8Array | string): this {
    const bytes = typeof value === 'string' ? Buffer.from(value, 'base64') : value;
    const length = bytes.length;
    this.uint32(length);
    this.room(length);
    this.buf.set(bytes, this.pos);
    this.pos += length;
    return this;
  }

  /** Opens a nested message: its length goes where this reserves a byte. */
  fork(): this {
    this.room(1);
    this.open.push(this.pos++);
    return this;
  }

  /** Closes the innermost nested message, writing its length before it. */
  ldelim(): this {
    const at = this.open.pop()!;
    const length = this.pos - at - 1;
    if (length < 128) {
      this.buf[at] = length;
      return this;
    }
    let size = 1;
    for (let v = length >>> 7; v; v >>>= 7) size++;
    this.room(size - 1);
    this.buf.copyWithin(at + size, at + 1, this.pos);
    this.pos += size - 1;
    let v = length;
    let p = at;
    while (v > 127) {
      this.buf[p++] = (v & 127) | 128;
      v >>>= 7;
    }
    this.buf[p] = v;
    return this;
  }
}
