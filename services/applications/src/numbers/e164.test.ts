import { describe, expect, it } from 'vitest';
import { displayNumber, exchangeOf, expandNumbers, normaliseNumber, normalisePrefix } from './e164';

describe('E.164 numbers', () => {
  it('when written with tel:, separators or without +, then they normalise to one form; anything else is refused', () => {
    for (const s of [
      '+14075550100',
      '14075550100',
      'tel:+1-407-555-0100',
      'TEL:+1 (407) 555.0100;phone-context=x',
      ' +14075550100 ',
    ]) {
      expect(normaliseNumber(s), s).toBe('+14075550100');
    }
    for (const s of ['', '+', '+0407555010', '+1407555x100', '+1234567890123456', 'sip:a@b', '+12345'])
      expect(normaliseNumber(s), s).toBeUndefined();
  });

  it('when shown, then NANP numbers get a display form and every number its four-digit exchange', () => {
    expect(displayNumber('+14075550100')).toBe('+1 407-555-0100');
    expect(displayNumber('+442079460000')).toBe('+442079460000');
    expect(exchangeOf('+14075550100')).toBe('1407');
    expect(exchangeOf('+442079460000')).toBe('4420');
  });

  it('when a prefix is given, then a leading + is optional and only digits are accepted', () => {
    expect(normalisePrefix('1407')).toBe('1407');
    expect(normalisePrefix('+1407')).toBe('1407');
    for (const s of ['', '+', '0407', '14a7', '1234567890123456']) expect(normalisePrefix(s), s).toBeUndefined();
  });

  it('when a range is expanded, then it holds every number in order; malformed, reversed, mixed-length and oversized ranges are refused', () => {
    expect(expandNumbers('+14075550100')).toEqual(['+14075550100']);
    expect(expandNumbers('+14075550198..+14075550201')).toEqual([
      '+14075550198',
      '+14075550199',
      '+14075550200',
      '+14075550201',
    ]);
    expect(expandNumbers('+14070000000..+14070099999')).toHaveLength(100_000);
    for (const [arg, why] of [
      ['14075550100', /E\.164/],
      ['+1407555x100', /E\.164/],
      ['+14075550200..+14075550100', /ends before it starts/],
      ['+14070000000..+14070100000', /at most 100000/],
      ['+14075550100..+1407555010', /same number of digits/],
      ['+14075550100..+14075550101..+14075550102', /FIRST\.\.LAST/],
    ] as const) {
      expect(() => expandNumbers(arg), arg).toThrow(why);
    }
  });
});
