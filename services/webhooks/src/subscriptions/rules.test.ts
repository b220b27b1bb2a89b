import { describe, expect, it } from 'vitest';
import { parseCidrList } from '@switchboard/security';
import type { FieldError } from '@switchboard/errors';
import { checkEvent, checkName, checkPayload, checkTargetUrl, normaliseResource, resourceMatches } from './rules';

const run = <T>(f: (errors: FieldError[]) => T): { value: T; errors: FieldError[] } => {
  const errors: FieldError[] = [];
  return { value: f(errors), errors };
};

describe('normaliseResource', () => {
  it('when resources are repeated, padded or out of order, then they come back deduplicated in canonical order', () => {
    expect(run((e) => normaliseResource(' transcription, call ,CALL,sms', e)).value).toBe('call,sms,transcription');
    expect(run((e) => normaliseResource('sms', e)).value).toBe('sms');
    expect(run((e) => normaliseResource('sms,,call,', e)).value).toBe('call,sms');
  });

  it('when the list contains all, then it is all', () => {
    expect(run((e) => normaliseResource('call,ALL', e)).value).toBe('all');
  });

  it('when the list is empty or names an unknown resource, then it is an error on the resource field', () => {
    for (const bad of ['', ' , ', 'fax', 'call,video']) {
      const r = run((e) => normaliseResource(bad, e));
      expect(r.value, bad).toBeUndefined();
      expect(r.errors[0]?.field).toBe('resource');
    }
  });
});

describe('checkEvent', () => {
  it('when the event differs only in case, then the canonical name is returned', () => {
    expect(run((e) => checkEvent('CDRCREATED', e)).value).toBe('cdrCreated');
    expect(run((e) => checkEvent('smsdlr', e)).value).toBe('smsdlr');
  });

  it('when the event is unknown, then it is an error naming the allowed values', () => {
    const r = run((e) => checkEvent('sms', e));
    expect(r.errors).toEqual([
      {
        field: 'event',
        message:
          'must be one of smsdlr, cdrCreated, cdrRated, webhookDisabled, alert, sessionStatus, alertTriggered, usageTriggered',
      },
    ]);
  });
});

describe('resourceMatches', () => {
  it('when either side is all or the list contains the resource, then it matches', () => {
    expect(resourceMatches('all', 'sms')).toBe(true);
    expect(resourceMatches('call,sms', 'sms')).toBe(true);
    expect(resourceMatches('call,sms', 'transcription')).toBe(false);
    expect(resourceMatches('call', 'all')).toBe(true);
  });
});

describe('checkTargetUrl', () => {
  const none = parseCidrList('');
  const loopback = parseCidrList('127.0.0.0/8,::1/128');

  it('when the URL is absolute http or https on a public host, then it is accepted as sent (trimmed)', () => {
    expect(run((e) => checkTargetUrl(' https://example.com/hook?x=1 ', none, e)).value).toBe(
      'https://example.com/hook?x=1',
    );
    expect(run((e) => checkTargetUrl('http://93.184.216.34:8080/', none, e)).errors).toEqual([]);
  });

  it('when the URL is relative, not http(s), has credentials, spaces or is too long, then it is refused', () => {
    for (const bad of [
      '/hook',
      'example.com',
      'ftp://example.com/',
      'javascript:alert(1)',
      'https://user:pw@example.com/',
      'https://exa mple.com/',
      `https://example.com/${'a'.repeat(2048)}`,
      '',
    ]) {
      const r = run((e) => checkTargetUrl(bad, none, e));
      expect(r.value, bad).toBeUndefined();
      expect(r.errors[0]?.field).toBe('targetUrl');
    }
  });

  it('when the host is a literal private address in any notation, then it is refused unless allow-listed', () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://[::1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://169.254.169.254/latest',
      'http://10.1.2.3/',
      'http://localhost:3000/',
    ]) {
      expect(run((e) => checkTargetUrl(url, none, e)).errors[0]?.message, url).toMatch(/private/);
    }
    expect(run((e) => checkTargetUrl('http://127.0.0.1:9999/hook', loopback, e)).errors).toEqual([]);
    expect(run((e) => checkTargetUrl('http://10.1.2.3/', loopback, e)).errors).toHaveLength(1);
  });
});

describe('checkPayload and checkName', () => {
  it('when the payload is a JSON object, then it is parsed; arrays, scalars and bad JSON are refused', () => {
    expect(run((e) => checkPayload('{"a":[1,2]}', e)).value).toEqual({ a: [1, 2] });
    for (const bad of ['[1]', '1', '"x"', 'null', '{', ''])
      expect(run((e) => checkPayload(bad, e)).errors[0]?.field, bad).toBe('payload');
    expect(run((e) => checkPayload(JSON.stringify({ a: 'x'.repeat(17000) }), e)).errors[0]?.message).toMatch(/at most/);
  });

  it('when the name is blank it means none; too long or with control characters it is refused', () => {
    expect(run((e) => checkName('  ', e)).value).toBeNull();
    expect(run((e) => checkName(' My hook ', e)).value).toBe('My hook');
    expect(run((e) => checkName('x'.repeat(256), e)).errors).toHaveLength(1);
    expect(run((e) => checkName('a\u0000b', e)).errors).toHaveLength(1);
  });
});
