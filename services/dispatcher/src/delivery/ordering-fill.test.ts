import { describe, expect, it } from 'vitest';
import { BucketFill } from './ordering-fill.ts';

describe('the ordering bucket fill', () => {
  it('when this process starts lines between two reads, then each counts at its written size until the next read', () => {
    const f = new BucketFill(async () => ({ bytes: 0, maxBytes: 0 }));
    expect(f.fill).toBe(0);
    f.set(500, 1000);
    expect(f.fill).toBe(0.5);
    f.add('$KV.DELIVERY_ORDERING.k.s.abc', 'x'.repeat(123));
    // subject 29 + value 123 + 48 per entry
    expect(f.fill).toBeCloseTo(0.7, 5);
    f.set(600, 1000);
    expect(f.fill).toBe(0.6);
  });

  it('when past half full, then it reads the stream again at most once a second, and not at all below half', async () => {
    let t = 0;
    let reads = 0;
    let held = 400;
    const f = new BucketFill(
      async () => {
        reads++;
        return { bytes: held, maxBytes: 1000 };
      },
      () => t,
    );
    f.set(400, 1000);
    t = 5000;
    f.refresh();
    expect(reads).toBe(0); // below half: the poll's reads suffice
    held = 950;
    f.add('s', 'x'.repeat(200 - 49));
    expect(f.fill).toBe(0.6);
    f.refresh();
    await new Promise((r) => setImmediate(r));
    expect(reads).toBe(1);
    expect(f.fill).toBe(0.95); // another replica's lines show
    t += 500;
    f.refresh();
    expect(reads).toBe(1);
    t += 600;
    f.refresh();
    await new Promise((r) => setImmediate(r));
    expect(reads).toBe(2);
  });
});
