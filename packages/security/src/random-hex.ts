// Random hex text for ids, drawn ahead: one call to the system's generator and one hex conversion
// for a pool of 4 KiB of random bytes, cut into ids as they are asked for (every character used
// once). Ids are drawn on hot paths (a trace and a span id for every traced request, an id for
// every stored delivery attempt), where a call to the generator per id costs more than the id.
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const bytes = Buffer.allocUnsafe(POOL_BYTES);
let pool = '';
let at = 0;

/** `chars` random hex characters (lowercase, 4 random bits each), at most 8,192 at once. */
export function randomHex(chars: number): string {
  if (chars > POOL_BYTES * 2) throw new RangeError(`at most ${POOL_BYTES * 2} random hex characters at once`);
  if (at + chars > pool.length) {
    randomFillSync(bytes);
    pool = bytes.toString('hex');
    at = 0;
  }
  return pool.slice(at, (at += chars));
}
