// Classification of IP addresses for SSRF protection: which targets a webhook may point at.
// Pure functions, no I/O: the webhooks service uses them at create/update on literal hosts, the
// dispatcher on the addresses a host name resolves to (docs/events.md#delivery).

export type IpVersion = 4 | 6;

export interface ParsedIp {
  version: IpVersion;
  /** 32 bits (IPv4) or 128 bits (IPv6). */
  value: bigint;
}

export interface Cidr {
  version: IpVersion;
  /** Network address, host bits cleared. */
  network: bigint;
  prefix: number;
  /** The text it was parsed from, for logs. */
  text: string;
}

const BITS: Record<IpVersion, number> = { 4: 32, 6: 128 };

/** Parses a strict dotted-quad IPv4 address ("10.0.0.1"); undefined for anything else. */
export function parseIPv4(text: string): bigint | undefined {
  // One pass over the characters, in plain numbers (a BigInt per octet and a regex per part cost a
  // gateway a few per cent of its CPU: every request's client address goes through here).
  let value = 0;
  let octet = 0;
  let digits = 0;
  let parts = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 46; // the end closes the last part as a '.'
    if (c === 46) {
      if (digits === 0 || octet > 255) return undefined;
      value = value * 256 + octet;
      parts++;
      octet = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits === 1 && octet === 0) return undefined; // no leading zero ("01")
      if (++digits > 3) return undefined;
      octet = octet * 10 + (c - 48);
    } else {
      return undefined;
    }
  }
  return parts === 4 ? BigInt(value) : undefined;
}

/** Parses an IPv6 address ("::1", "fe80::1", "::ffff:10.0.0.1"), with or without brackets or a zone id. */
export function parseIPv6(input: string): bigint | undefined {
  let text = input;
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (text.length === 0 || text.length > 45 || !/^[0-9A-Fa-f:.]+$/.test(text)) return undefined;

  // An embedded IPv4 tail ("::ffff:1.2.3.4") stands for the last two hextets.
  let tail: number[] = [];
  if (text.includes('.')) {
    const lastColon = text.lastIndexOf(':');
    if (lastColon < 0) return undefined;
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    tail = [Number(v4 >> 16n), Number(v4 & 0xffffn)];
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }

  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    for (const h of s.split(':')) {
      if (!/^[0-9A-Fa-f]{1,4}$/.test(h)) return undefined;
      out.push(parseInt(h, 16));
    }
    return out;
  };
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (!head || !rest) return undefined;
  const explicit = head.length + rest.length + tail.length;
  let groups: number[];
  if (halves.length === 2) {
    if (explicit > 7) return undefined;
    groups = [...head, ...new Array<number>(8 - explicit).fill(0), ...rest, ...tail];
  } else {
    if (explicit !== 8) return undefined;
    groups = [...head, ...tail];
  }
  let value = 0n;
  for (const g of groups) value = (value << 16n) | BigInt(g);
  return value;
}

/** Parses an IPv4 or IPv6 address; undefined when the text is not an IP address. */
export function parseIp(text: string): ParsedIp | undefined {
  const v4 = parseIPv4(text);
  if (v4 !== undefined) return { version: 4, value: v4 };
  const v6 = parseIPv6(text);
  if (v6 !== undefined) return { version: 6, value: v6 };
  return undefined;
}

/** Parses "10.0.0.0/8", "::1/128" or a bare address (a /32 or /128). Throws on anything else. */
export function parseCidr(text: string): Cidr {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const addr = slash >= 0 ? trimmed.slice(0, slash) : trimmed;
  const ip = parseIp(addr);
  if (!ip) throw new Error(`not a CIDR: ${JSON.stringify(text)}`);
  const max = BITS[ip.version];
  let prefix = max;
  if (slash >= 0) {
    const p = trimmed.slice(slash + 1);
    if (!/^\d{1,3}$/.test(p) || Number(p) > max) throw new Error(`not a CIDR: ${JSON.stringify(text)}`);
    prefix = Number(p);
  }
  return { version: ip.version, network: ip.value & mask(ip.version, prefix), prefix, text: trimmed };
}

/** Parses a comma-separated list of CIDRs ("127.0.0.0/8,::1/128"); empty text gives an empty list. */
export function parseCidrList(text: string | undefined): Cidr[] {
  if (!text) return [];
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map(parseCidr);
}

function mask(version: IpVersion, prefix: number): bigint {
  const bits = BigInt(BITS[version]);
  const all = (1n << bits) - 1n;
  return prefix === 0 ? 0n : (all >> (bits - BigInt(prefix))) << (bits - BigInt(prefix));
}

export function cidrContains(cidr: Cidr, ip: ParsedIp): boolean {
  return cidr.version === ip.version && (ip.value & mask(ip.version, cidr.prefix)) === cidr.network;
}

const V4_BLOCKED = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT (also cloud metadata such as 100.100.100.200)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, cloud metadata 169.254.169.254
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
].map(parseCidr);

const V6_BLOCKED = [
  '::/128', // unspecified
  '::1/128', // loopback
  '100::/64', // discard
  '2001::/32', // Teredo: tunnels to the (obfuscated) IPv4 address in its low 32 bits, private ones included
  '2001:db8::/32', // documentation
  '64:ff9b:1::/48', // local-use NAT64 (RFC 8215): translates into the operator's own, possibly private, IPv4 space
  'fc00::/7', // unique local (also fd00:ec2::254, the AWS metadata address)
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
].map(parseCidr);

/**
 * The IPv4 address that an IPv6 address carries and that a packet to it could reach: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64
 * (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::). Teredo and local-use NAT64 are refused as whole
 * ranges (V6_BLOCKED).
 */
export function embeddedIPv4(ip: ParsedIp): ParsedIp | undefined {
  if (ip.version !== 6) return undefined;
  const v = ip.value;
  const low32 = v & 0xffffffffn;
  if (v >> 32n === 0xffffn) return { version: 4, value: low32 }; // ::ffff:0:0/96
  if (v >> 32n === 0xffff0000n) return { version: 4, value: low32 }; // ::ffff:0:0:0/96
  if (v >> 32n === 0n && v > 1n) return { version: 4, value: low32 }; // ::/96 (not :: or ::1)
  if (v >> 32n === 0x0064ff9b0000000000000000n) return { version: 4, value: low32 }; // 64:ff9b::/96
  if (v >> 112n === 0x2002n) return { version: 4, value: (v >> 80n) & 0xffffffffn }; // 2002::/16
  return undefined;
}

/** True for addresses that are not on the public internet: private, loopback, link-local, metadata, reserved. */
export function isPrivateAddress(ip: ParsedIp): boolean {
  const embedded = embeddedIPv4(ip);
  if (embedded) return isPrivateAddress(embedded);
  const list = ip.version === 4 ? V4_BLOCKED : V6_BLOCKED;
  return list.some((c) => cidrContains(c, ip));
}

/** True when `ip` lies in one of `allowed` (an IPv4-mapped IPv6 address also matches IPv4 ranges). */
export function isAllowedByCidrs(ip: ParsedIp, allowed: readonly Cidr[]): boolean {
  if (allowed.some((c) => cidrContains(c, ip))) return true;
  const embedded = embeddedIPv4(ip);
  return embedded ? allowed.some((c) => cidrContains(c, embedded)) : false;
}

/**
 * The verdict on one address a request would go to: private addresses are refused unless an
 * allow-listed range (DELIVERY_ALLOWED_CIDRS) contains them. Text that is not an IP is refused.
 */
export function isAddressAllowed(address: string, allowed: readonly Cidr[]): boolean {
  const ip = parseIp(address);
  if (!ip) return false;
  return !isPrivateAddress(ip) || isAllowedByCidrs(ip, allowed);
}

export type HostVerdict =
  | { kind: 'address'; allowed: boolean; address: string }
  /** A DNS name: cannot be judged without resolving it (the dispatcher checks the resolved addresses). */
  | { kind: 'name' };

const LOCALHOST = /(^|\.)localhost\.?$/i;

/**
 * Judges the host of a URL as WHATWG URL parsing gives it (`new URL(x).hostname`: IPv4 in any
 * decimal/hex/octal form is already normalised to a dotted quad, IPv6 comes in brackets).
 * `localhost` and `*.localhost` are judged as the loopback addresses they always resolve to.
 */
export function judgeHost(hostname: string, allowed: readonly Cidr[]): HostVerdict {
  if (LOCALHOST.test(hostname))
    return { kind: 'address', allowed: isAddressAllowed('127.0.0.1', allowed), address: '127.0.0.1' };
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname.replace(/\.$/, '');
  const ip = parseIp(bare);
  if (!ip) return { kind: 'name' };
  return { kind: 'address', allowed: !isPrivateAddress(ip) || isAllowedByCidrs(ip, allowed), address: bare };
}
