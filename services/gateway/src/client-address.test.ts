import { describe, expect, it } from 'vitest';
import { parseCidrList } from '@switchboard/security';
import { loadConfig } from './config';
import { clientAddress, clientGroup } from './client-address';

describe('clientAddress', () => {
  const proxies = parseCidrList('10.0.0.0/8,::1/128');

  it('when no proxy is trusted, then X-Forwarded-For is ignored', () => {
    expect(clientAddress('203.0.113.9', '1.2.3.4', [])).toBe('203.0.113.9');
    expect(clientAddress('::ffff:203.0.113.9', undefined, [])).toBe('203.0.113.9');
  });

  it('when the peer is a trusted proxy, then the rightmost address no trusted proxy added is the client', () => {
    expect(clientAddress('10.1.1.1', '6.6.6.6, 198.51.100.7, 10.2.2.2', proxies)).toBe('198.51.100.7');
    expect(clientAddress('::1', '198.51.100.7', proxies)).toBe('198.51.100.7');
    // A forged hop left of the real client changes nothing.
    expect(clientAddress('10.1.1.1', ['6.6.6.6', '198.51.100.7'], proxies)).toBe('198.51.100.7');
    // Garbage stops the walk at the last trusted hop.
    expect(clientAddress('10.1.1.1', 'nonsense, 10.3.3.3', proxies)).toBe('10.3.3.3');
  });

  it('when the peer is not trusted, then its X-Forwarded-For is not believed', () => {
    expect(clientAddress('198.51.100.7', '10.1.1.1', proxies)).toBe('198.51.100.7');
  });

  it('when the client is IPv6, then its group is its /64; an IPv4 client (mapped or not) is its own group', () => {
    expect(clientGroup('2001:db8:0:1:aaaa::1', undefined, [])).toBe('2001:db8:0:1::/64');
    expect(clientGroup('10.1.1.1', '2001:DB8:0:1:ffff:ffff:ffff:ffff', proxies)).toBe('2001:db8:0:1::/64');
    expect(clientGroup('::ffff:203.0.113.9', undefined, [])).toBe('203.0.113.9');
  });

  it('when TRUSTED_PROXIES is not a CIDR list, then the configuration is refused at start', () => {
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,not-a-cidr' })).toThrow(/TRUSTED_PROXIES/);
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8' }).TRUSTED_PROXIES).toHaveLength(1);
    expect(loadConfig({}).TRUSTED_PROXIES).toEqual([]);
  });
});
