import { describe, expect, it } from 'vitest';
import { sessionKey } from './session-registry';

describe('session registry keys', () => {
  it('when a session id is made of letters, digits, _ and -, then it is its own key; any other id is keyed by its hash, never colliding with a plain one', () => {
    expect(sessionKey('6f1d0c9e2b7a4c58a1e3f0b2d4c6e8a0')).toBe('6f1d0c9e2b7a4c58a1e3f0b2d4c6e8a0');
    expect(sessionKey('core-1_A')).toBe('core-1_A');
    for (const id of ['a.b', 'a b', 'x>', '*', 'sess:1@host']) expect(sessionKey(id), id).toMatch(/^=[0-9a-f]{64}$/);
    expect(sessionKey('a.b')).not.toBe(sessionKey('a b'));
  });
});
