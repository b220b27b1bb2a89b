import { describe, expect, it } from 'vitest';
import { EXCERPT_BYTES, excerptOf } from './session-records';

describe('answer excerpts', () => {
  it('when an answer fits in 4 KiB, then the excerpt is all of it, not truncated', () => {
    expect(excerptOf(Buffer.from('{"tropo":[]}'))).toEqual({ text: '{"tropo":[]}', truncated: false });
    expect(excerptOf('é'.repeat(EXCERPT_BYTES / 2))).toEqual({ text: 'é'.repeat(EXCERPT_BYTES / 2), truncated: false });
  });

  it('when an answer is longer, then the excerpt is its first 4 KiB cut before a character that would not fit', () => {
    for (const ch of ['a', 'é', '€', '😀']) {
      const x = excerptOf(Buffer.from(ch.repeat(5000)));
      expect(x.truncated).toBe(true);
      const bytes = Buffer.byteLength(x.text);
      expect(bytes).toBeLessThanOrEqual(EXCERPT_BYTES);
      expect(bytes).toBeGreaterThan(EXCERPT_BYTES - Buffer.byteLength(ch));
      expect(x.text).toBe(ch.repeat(bytes / Buffer.byteLength(ch)));
    }
  });
});
