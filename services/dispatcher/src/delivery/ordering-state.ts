// The state of one ordering key of one subscription (docs/decisions/0022-ordering-by-key.md), as it
// is stored in the DELIVERY_ORDERING bucket, and the pure steps that change it. ordering.ts reads
// and writes it with compare-and-set; everything here is a function of the state and the input.

/**
 * One pending delivery of the key: its id (webhook-id, or a resend's delivery id), where its
 * waiting copy is stored (0: none, it waits in the memory of the process that runs the head), and
 * its position: the stream sequence of the event it delivers (`resend` 1: of the resend job), by
 * which waiting deliveries are kept in line.
 */
export type Entry = [id: string, heldSeq: number, pos?: number, resend?: 1];

/** Where a delivery comes from in its stream: waiting deliveries of the same stream are kept in this order. */
export interface Position {
  seq: number;
  resend?: boolean;
}

export interface KeyState {
  /** Pending deliveries in the order they get their turn; q[0] is the head, the one whose turn it is. */
  q: Entry[];
  /** The webhook-sequence of the head. */
  n: number;
  /** When the head got its turn (epoch ms): its hold starts there. */
  t: number;
  /** The delivery before the head ended failed: the head carries `previousFailed`. */
  f?: 1;
  /** The subscription had its most keys held when this key began to hold: its new events go unordered until it is idle. */
  u?: 1;
  /** Sequence (in the bucket) of the key's held marker, written when its head began to wait. */
  h?: number;
}

/**
 * The first webhook-sequence of a key that has no state: the time in microseconds. A key's number
 * goes up by one per delivery that gets its turn, and a turn takes at least a millisecond (an HTTP
 * attempt), so the numbers of a key stay below the clock: a key that was idle (its state dropped)
 * starts above every number it had.
 */
export function firstSequence(now: number): number {
  return now * 1000;
}

/** The state of a key whose first pending delivery gets its turn now. */
export function started(id: string, now: number): KeyState {
  return { q: [[id, 0]], n: firstSequence(now), t: now };
}

/** Where `id` stands in the key's line: 0 is its turn, -1 not there. */
export function placeOf(s: KeyState, id: string): number {
  return s.q.findIndex((e) => e[0] === id);
}

/**
 * The state once `id` joined the key's line: its turn at once when nothing is pending (a key seen
 * for the first time, or one whose last delivery failed: it keeps its numbers and carries
 * `previousFailed`), else waiting at the end, its copy stored at `heldSeq`.
 */
export function joined(
  s: KeyState | null,
  id: string,
  heldSeq: number,
  now: number,
  pos?: Position,
): { state: KeyState; turn: boolean } {
  if (!s) return { state: started(id, now), turn: true };
  if (s.q.length === 0) {
    const state: KeyState = { q: [[id, heldSeq]], n: s.n + 1, t: now };
    if (s.f) state.f = 1;
    return { state, turn: true };
  }
  const e: Entry = pos === undefined ? [id, heldSeq] : pos.resend ? [id, heldSeq, pos.seq, 1] : [id, heldSeq, pos.seq];
  return { state: { ...s, q: inLine(s.q, e) }, turn: false };
}

/**
 * The line with `e` in its place: behind the head, and before the waiting deliveries of its stream
 * that come later in it (an event that reached a replica later than a later event of its key, and
 * joined after it, still goes first as long as that one has not had its turn).
 */
export function inLine(q: Entry[], e: Entry): Entry[] {
  const pos = e[2];
  let at = q.length;
  if (pos !== undefined)
    for (let i = q.length - 1; i >= 1; i--) {
      const other = q[i]!;
      if (other[2] === undefined) break;
      // Another stream's waiting delivery: no order between them; look past it.
      if ((other[3] ?? 0) !== (e[3] ?? 0)) continue;
      if (other[2] < pos) break;
      at = i;
    }
  return [...q.slice(0, at), e, ...q.slice(at)];
}

/**
 * The state once `id` ended (delivered, failed or dropped): null when nothing is left to keep; a
 * key whose last delivery failed keeps its number and the failure for its next event. When the
 * head ends, the next in line gets its turn: the next number, its hold starting now, and
 * `previousFailed` when the head did not succeed. `next` is the entry to wake.
 */
export function ended(
  s: KeyState,
  id: string,
  failed: boolean,
  now: number,
): { state: KeyState | null; next?: Entry; changed: boolean } {
  const at = placeOf(s, id);
  if (at < 0) return { state: s, changed: false };
  const q = s.q.filter((_, i) => i !== at);
  if (at > 0) return { state: { ...s, q }, changed: true };
  if (q.length === 0) return { state: failed ? { q, n: s.n, t: s.t, f: 1 } : null, changed: true };
  const state: KeyState = { q, n: s.n + 1, t: now };
  if (failed) state.f = 1;
  if (s.u) state.u = 1;
  return { state, next: q[0], changed: true };
}
