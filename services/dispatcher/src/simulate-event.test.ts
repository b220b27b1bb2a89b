import { describe, expect, it } from 'vitest';
import { parseEvent } from './events/schemas';
import { buildEvent, UsageError } from './simulate-event';

describe('simulate', () => {
  it.each([
    [['session', '--application', 'app1']],
    [['session', '--application', 'app1', '--channel', 'TEXT', '--text', 'hi', '--from', 'bob']],
    [['cdr.created', '--account', '7']],
    [['cdr.rated', '--account', '7', '--application', 'a1', '--resource', 'transcription']],
    [['sms.dlr', '--account', '7']],
    [['session', '--to', '+14075550100']],
  ])('when run with %j, then the event it builds passes the inbound schema', (args) => {
    const { subject, body } = buildEvent(args);
    expect(() => parseEvent(subject, JSON.stringify(body))).not.toThrow();
  });

  it('when a TEXT session is asked for, then it carries the text', () => {
    const { body } = buildEvent(['session', '--application', 'a', '--text', 'hi']);
    expect(body).toMatchObject({ applicationId: 'a', session: { initialText: 'hi', from: { channel: 'TEXT' } } });
  });

  it('when a session is given --to without --application, then it is routed by that address (on SIP for a SIP URI)', () => {
    expect(buildEvent(['session', '--to', '14075550100']).body).not.toHaveProperty('applicationId');
    expect(buildEvent(['session', '--to', 'sip:desk@sip.example.com']).body).toMatchObject({
      session: { to: { id: 'sip:desk@sip.example.com', network: 'SIP' } },
    });
  });

  it('when a required option is missing, then it says which', () => {
    expect(() => buildEvent(['session'])).toThrow(UsageError);
    expect(() => buildEvent(['cdr.created'])).toThrow(/--account/);
    expect(() => buildEvent(['boom'])).toThrow(/unknown/);
  });
});
