import { describe, expect, it } from 'vitest';
import { dialledAddress } from './addresses';
import { parseEvent } from './schemas';

describe('dialled addresses (docs/events.md#routing-by-address)', () => {
  it('when a number is written with or without "+", tel:, spaces, dots, dashes or parentheses, then it is one E.164 number', () => {
    for (const s of [
      '+14075550100',
      '14075550100',
      ' +1 407-555-0100 ',
      '1 (407) 555.0100',
      'tel:+1-407-555-0100;phone-context=example.com',
    ]) {
      expect(dialledAddress(s, 'PSTN'), s).toEqual({ type: 'number', address: '+14075550100' });
    }
    expect(dialledAddress('14075550100', 'SMS')).toEqual({ type: 'number', address: '+14075550100' });
    expect(dialledAddress('14075550100')).toEqual({ type: 'number', address: '+14075550100' });
  });

  it('when a SIP address is dialled, then it is the stored sip:user@host form, with or without its scheme on the SIP network', () => {
    for (const [s, network] of [
      ['sip:abc@sip.example.com', 'SIP'],
      ['SIP:abc@SIP.Example.COM:5060', 'sip'],
      ['"Bob" <sips:abc@sip.example.com;transport=tls>', null],
      ['abc@sip.example.com', 'SIP'],
    ] as const) {
      expect(dialledAddress(s, network), s).toEqual({ type: 'sip', address: 'sip:abc@sip.example.com' });
    }
  });

  it('when an address is neither a number nor a SIP URI, then there is none to route by', () => {
    for (const [s, network] of [
      ['bot', 'JABBER'],
      ['abc@sip.example.com', 'PSTN'],
      ['+0123', 'PSTN'],
      ['sip:nohost', 'SIP'],
      ['', 'PSTN'],
    ] as const) {
      expect(dialledAddress(s, network), s).toBeUndefined();
    }
  });

  it('when sessions.new has no applicationId, then it needs a session.to.id to be routed by', () => {
    const p = parseEvent('sessions.new', JSON.stringify({ session: { to: { id: '+14075550100', network: 'PSTN' } } }));
    expect(p.kind === 'session' && p.event.applicationId).toBeUndefined();
    for (const body of [{ session: {} }, { session: { to: { network: 'PSTN' } } }, { session: { to: { id: '  ' } } }]) {
      expect(() => parseEvent('sessions.new', JSON.stringify(body)), JSON.stringify(body)).toThrow(
        /applicationId: is required when the session has no to\.id/,
      );
    }
  });
});
