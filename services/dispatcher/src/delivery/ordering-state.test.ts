import { describe, expect, it } from 'vitest';
import { ended, joined, type KeyState } from './ordering-state.ts';

const ids = (s: KeyState) => s.q.map((e) => e[0]);

describe('ordering lines', () => {
  it('when events of a key join behind its head out of their stream order, then they wait in their stream order, and resends in theirs', () => {
    let s = joined(null, 'e1', 0, 1000, { seq: 1 }).state;
    s = joined(s, 'e4', 40, 1001, { seq: 4 }).state;
    s = joined(s, 'e2', 0, 1002, { seq: 2 }).state;
    s = joined(s, 'r9', 50, 1003, { seq: 9, resend: true }).state;
    s = joined(s, 'e3', 30, 1004, { seq: 3 }).state;
    s = joined(s, 'r7', 60, 1005, { seq: 7, resend: true }).state;
    s = joined(s, 'e5', 70, 1006, { seq: 5 }).state;
    expect(ids(s)).toEqual(['e1', 'e2', 'e3', 'e4', 'r7', 'r9', 'e5']);
    // The head keeps its place whatever its position.
    const late = joined(joined(null, 'e5', 0, 1000, { seq: 5 }).state, 'e2', 0, 1001, { seq: 2 }).state;
    expect(ids(late)).toEqual(['e5', 'e2']);
    // The head ends: the next in line gets its turn and the next number.
    const r = ended(s, 'e1', false, 2000);
    expect(r.next?.[0]).toBe('e2');
    expect(r.state?.n).toBe(s.n + 1);
  });
});
