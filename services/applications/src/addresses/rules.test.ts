import { describe, expect, it } from 'vitest';
import { normaliseSipUri, normaliseValue, parseType } from './rules';

describe('address rules', () => {
  it('when a SIP URI is written with a display name, brackets, port, parameters or an upper-case host, then it normalises to sip:user@host', () => {
    for (const s of [
      'sip:abc@sip.example.com',
      'SIP:abc@SIP.Example.COM',
      '"Bob" <sip:abc@sip.example.com:5060;transport=udp>',
      'sip:abc@sip.example.com?subject=x',
      'sips:abc@sip.example.com',
    ]) {
      expect(normaliseSipUri(s), s).toBe('sip:abc@sip.example.com');
    }
    for (const s of ['abc@sip.example.com', 'sip:sip.example.com', 'tel:+14075550100', 'sip:a@b c'])
      expect(normaliseSipUri(s), s).toBeUndefined();
  });

  it('when a type is retired or unknown, then it is a 400 that says so', () => {
    expect(parseType('Number')).toBe('number');
    expect(() => parseType('skype')).toThrow(/no longer supported/);
    expect(() => parseType('pin')).toThrow(/must be number, token or sip/);
  });

  it('when a value in a path is malformed for its type, then it is a 400', () => {
    expect(normaliseValue('number', '14075550100')).toBe('+14075550100');
    expect(() => normaliseValue('number', 'abc')).toThrow(/E\.164/);
    expect(() => normaliseValue('token', 'ABC')).toThrow(/token/);
    expect(() => normaliseValue('sip', 'abc')).toThrow(/SIP URI/);
  });
});
