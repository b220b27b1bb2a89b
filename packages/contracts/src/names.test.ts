import { describe, expect, it } from 'vitest';
import { hasUnsafeNameCharacters } from './names.ts';

describe('names', () => {
  it('when a name holds a control or bidirectional formatting character or a lone surrogate, then it is unsafe', () => {
    for (const c of ['\u0000', '\n', '\u001b', '\u007f', '\u0085', '\u061c', '\u200e', '\u200f'])
      expect(hasUnsafeNameCharacters(`a${c}b`), JSON.stringify(c)).toBe(true);
    for (let c = 0x202a; c <= 0x202e; c++) expect(hasUnsafeNameCharacters(`x${String.fromCharCode(c)}`)).toBe(true);
    for (let c = 0x2066; c <= 0x2069; c++) expect(hasUnsafeNameCharacters(`x${String.fromCharCode(c)}`)).toBe(true);
    expect(hasUnsafeNameCharacters('\ud800')).toBe(true);
    expect(hasUnsafeNameCharacters('a\udc00')).toBe(true);
  });

  it('when a name is text in any script, emoji or spaces, then it is safe', () => {
    for (const name of [
      'billing',
      'Café ☕',
      'מוקד שירות',
      'خدمة',
      '日本語 アプリ',
      'ops 🚀',
      'a\u200db',
      'tab-free name',
    ])
      expect(hasUnsafeNameCharacters(name), name).toBe(false);
  });
});
