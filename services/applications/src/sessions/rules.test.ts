import { describe, expect, it } from 'vitest';
import {
  checkParameters,
  checkSessionId,
  checkSignalValue,
  SESSION_PARAMETER_VALUE_MAX,
  SESSION_PARAMETERS_MAX,
} from './rules';

describe('session API rules', () => {
  it('when parameters stay within the limits, then they pass as given; one over any limit is a 400 naming it', () => {
    const full = Object.fromEntries(Array.from({ length: SESSION_PARAMETERS_MAX }, (_, i) => [`p${i}`, 'v']));
    expect(checkParameters(full)).toBe(full);
    expect(checkParameters({ msg: 'line one\nline two' })).toEqual({ msg: 'line one\nline two' });
    expect(() => checkParameters({ ...full, extra: 'v' })).toThrow(/at most 50 parameters/);
    expect(() => checkParameters({ big: 'x'.repeat(SESSION_PARAMETER_VALUE_MAX + 1) })).toThrow(
      /big: must be at most 2048/,
    );
    expect(() => checkParameters({ nul: 'a\u0000b' })).toThrow(/NUL/);
    expect(() => checkParameters({ 'a\nb': 'v' })).toThrow(/parameter name/);
    expect(() => checkParameters({ '': 'v' })).toThrow(/parameter name/);
  });

  it('when a signal names a session id or value out of shape, then it is a 400', () => {
    expect(checkSessionId('0123abcd-ef')).toBe('0123abcd-ef');
    for (const id of ['', 'a b', 'x'.repeat(201), 'é']) expect(() => checkSessionId(id), id).toThrow(/sessionId/);
    expect(checkSignalValue('exit')).toBe('exit');
    for (const v of ['', 'a\tb', 'x'.repeat(257)]) expect(() => checkSignalValue(v), v).toThrow(/value/);
  });
});
