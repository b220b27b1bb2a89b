import { describe, expect, it } from 'vitest';
import { isAddressAllowed, judgeHost, parseCidr, parseCidrList, parseIp, parseIPv6, isPrivateAddress } from './ssrf';

const TEST_ALLOW = parseCidrList('127.0.0.0/8,::1/128');

function hostOf(url: string): string {
  return new URL(url).hostname;
}

describe('parseIp', () => {
  it('when given IPv4 and IPv6 texts, then it parses exactly the valid ones', () => {
    expect(parseIp('10.1.2.3')).toEqual({ version: 4, value: 0x0a010203n });
    expect(parseIp('255.255.255.255')).toEqual({ version: 4, value: 0xffffffffn });
    expect(parseIp('0.0.0.0')).toEqual({ version: 4, value: 0n });
    expect(parseIp('127.0.10.100')).toEqual({ version: 4, value: 0x7f000a64n });
    expect(parseIp('::1')).toEqual({ version: 6, value: 1n });
    expect(parseIp('[::1]')).toEqual({ version: 6, value: 1n });
    expect(parseIp('fe80::1%eth0')?.value).toBe((0xfe80n << 112n) | 1n);
    expect(parseIPv6('::ffff:1.2.3.4')).toBe(0xffff01020304n);
    expect(parseIPv6('::1.2.3.4')).toBe(0x01020304n);
    expect(parseIPv6('1:2:3:4:5:6:1.2.3.4')).toBe(0x0001000200030004000500060102_0304n);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toBe(0x00010002000300040005000600070008n);
    for (const bad of [
      '',
      '1.2.3',
      '1.2.3.256',
      '01.2.3.4',
      '1.2.3.00',
      '1.2.3.4.',
      '.1.2.3.4',
      '1..2.3',
      '1.2.3.4.5',
      '1.2.3.1000',
      '1.2.3.-4',
      '1.2.3.4 ',
      '1.2.3.0x1',
      'example.com',
      ':::',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      ':1.2.3.4',
      '12345::',
      'g::1',
      '1:2:3:4:5:6:7',
    ]) {
      expect(parseIp(bad), bad).toBeUndefined();
    }
  });
});

describe('parseCidr', () => {
  it('when given a CIDR or a bare address, then host bits are cleared and the prefix kept', () => {
    expect(parseCidr('10.1.2.3/8')).toMatchObject({ version: 4, network: 0x0a000000n, prefix: 8 });
    expect(parseCidr('::1')).toMatchObject({ version: 6, network: 1n, prefix: 128 });
    expect(parseCidr(' 0.0.0.0/0 ')).toMatchObject({ prefix: 0, network: 0n });
  });

  it('when the text is not a CIDR, then it throws naming it', () => {
    for (const bad of ['10.0.0.0/33', '::/129', 'abc', '10.0.0.0/', '10.0.0.0/-1'])
      expect(() => parseCidr(bad), bad).toThrow(/not a CIDR/);
    expect(parseCidrList('')).toEqual([]);
    expect(parseCidrList(' 10.0.0.0/8 , ,::1/128')).toHaveLength(2);
  });
});

describe('isPrivateAddress', () => {
  it('when the address is private, loopback, link-local, CGNAT, metadata or reserved, then it is private', () => {
    for (const a of [
      '0.0.0.0',
      '10.0.0.1',
      '100.64.0.1',
      '100.100.100.200',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fc00::1',
      'fd00:ec2::254',
      'fe80::1',
      'febf::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::',
    ]) {
      expect(isPrivateAddress(parseIp(a)!), a).toBe(true);
    }
  });

  it('when an IPv6 address wraps a private IPv4 address (translated, NAT64, Teredo), then it is private', () => {
    for (const a of [
      '::ffff:0:a00:1',
      '::ffff:0:10.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:a00:1',
      '64:ff9b::a00:1',
      '64:ff9b::10.0.0.1',
      '64:ff9b:1:a00:0:100::',
      '64:ff9b:1::a9fe:a9fe',
      '64:ff9b:1:ffff:ffff:ffff:ffff:ffff',
      '2001:0:4136:e378:8000:63bf:f5ff:fffe',
      '2001::80ff:fffe',
      '2001:0:ffff:ffff:ffff:ffff:ffff:ffff',
    ]) {
      expect(isPrivateAddress(parseIp(a)!), a).toBe(true);
    }
  });

  it('when the address is public, then it is not private', () => {
    for (const a of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '172.15.255.255',
      '100.128.0.1',
      '192.169.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '2002:808:808::',
      '::ffff:0:808:808',
      '64:ff9b::808:808',
      '2001:4860::8888',
      '2001:1::1',
    ]) {
      expect(isPrivateAddress(parseIp(a)!), a).toBe(false);
    }
  });
});

describe('isAddressAllowed', () => {
  it('when an allow-list covers a private address, then it is allowed, also in its IPv4-mapped form', () => {
    expect(isAddressAllowed('127.0.0.1', [])).toBe(false);
    expect(isAddressAllowed('127.0.0.1', TEST_ALLOW)).toBe(true);
    expect(isAddressAllowed('::ffff:127.0.0.1', TEST_ALLOW)).toBe(true);
    expect(isAddressAllowed('::1', TEST_ALLOW)).toBe(true);
    expect(isAddressAllowed('::ffff:0:7f00:1', TEST_ALLOW)).toBe(true);
    expect(isAddressAllowed('::ffff:0:a00:1', TEST_ALLOW)).toBe(false);
    expect(isAddressAllowed('10.0.0.1', TEST_ALLOW)).toBe(false);
    expect(isAddressAllowed('8.8.8.8', [])).toBe(true);
    expect(isAddressAllowed('not-an-ip', [])).toBe(false);
  });
});

describe('judgeHost', () => {
  it('when a URL writes a private IPv4 address in decimal, hex, octal or short form, then it is refused', () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://0/',
      'http://127.0.0.1./',
      'http://0xa9fea9fe/',
    ]) {
      expect(judgeHost(hostOf(url), []), url).toMatchObject({ kind: 'address', allowed: false });
    }
  });

  it('when a URL holds a private IPv6 literal, then it is refused', () => {
    for (const url of [
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://[::ffff:0:a00:1]/',
      'http://[::ffff:0:10.0.0.1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://[64:ff9b::10.0.0.1]/',
      'http://[64:ff9b:1::a00:1]/',
      'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/',
    ]) {
      expect(judgeHost(hostOf(url), []), url).toMatchObject({ kind: 'address', allowed: false });
    }
  });

  it('when the host is localhost, then it is judged as loopback', () => {
    expect(judgeHost(hostOf('http://LOCALHOST./x'), [])).toMatchObject({ kind: 'address', allowed: false });
    expect(judgeHost(hostOf('http://api.localhost/x'), [])).toMatchObject({ kind: 'address', allowed: false });
    expect(judgeHost(hostOf('http://localhost:8080/x'), TEST_ALLOW)).toMatchObject({ kind: 'address', allowed: true });
  });

  it('when the host is public or a DNS name, then it passes (names are checked after resolution)', () => {
    expect(judgeHost(hostOf('https://93.184.216.34/'), [])).toMatchObject({ kind: 'address', allowed: true });
    expect(judgeHost(hostOf('https://[2606:4700::1111]/'), [])).toMatchObject({ kind: 'address', allowed: true });
    expect(judgeHost(hostOf('https://example.com/hook'), [])).toEqual({ kind: 'name' });
  });

  it('when loopback is allow-listed (tests), then loopback literals pass but other private ranges do not', () => {
    expect(judgeHost(hostOf('http://127.0.0.1:9/'), TEST_ALLOW)).toMatchObject({ allowed: true });
    expect(judgeHost(hostOf('http://[::1]:9/'), TEST_ALLOW)).toMatchObject({ allowed: true });
    expect(judgeHost(hostOf('http://169.254.169.254/'), TEST_ALLOW)).toMatchObject({ allowed: false });
  });
});
