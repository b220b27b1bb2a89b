// The address a request comes from, for the pre-authentication limit. X-Forwarded-For is believed
// only as far as the proxies in TRUSTED_PROXIES reach: read from the right, each hop added by a
// trusted proxy is skipped, and the first address a trusted proxy did not vouch for is the client.
// Anything left of it could have been written by the client itself. Budgets are kept per client
// group (clientGroup): an IPv4 address, or the /64 an IPv6 address is in (one host or LAN usually
// holds a whole /64, so rotating addresses within it buys no fresh budget).
import { isAllowedByCidrs, parseIp, type Cidr } from '@switchboard/security';

export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: readonly Cidr[],
): string {
  let address = normalize(peer ?? '');
  if (trusted.length === 0 || !isTrusted(address, trusted) || forwardedFor === undefined) return address;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map((h) => h.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalize(hops[i]!);
    // A hop that is not an address ends the walk at the last proxy we trust (its peer is unknown).
    if (!parseIp(hop)) return address;
    address = hop;
    if (!isTrusted(hop, trusted)) return hop;
  }
  return address;
}

/** The key of a client's budgets: its IPv4 address, or the /64 of its IPv6 address (`2001:db8:1:2::/64`). */
export function clientGroup(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: readonly Cidr[],
): string {
  const address = clientAddress(peer, forwardedFor, trusted);
  const ip = parseIp(address);
  if (ip?.version !== 6) return address;
  const prefix = ip.value >> 64n;
  const groups = [48n, 32n, 16n, 0n].map((shift) => ((prefix >> shift) & 0xffffn).toString(16));
  return `${groups.join(':')}::/64`;
}

/** Whether the peer of a connection is one of the trusted proxies (what it forwards may be believed). */
export function isTrustedPeer(peer: string | undefined, trusted: readonly Cidr[]): boolean {
  return trusted.length > 0 && isTrusted(normalize(peer ?? ''), trusted);
}

function isTrusted(address: string, trusted: readonly Cidr[]): boolean {
  const ip = parseIp(address);
  return ip !== undefined && isAllowedByCidrs(ip, trusted);
}

/** `::ffff:1.2.3.4` is 1.2.3.4 (a dual-stack socket's IPv4 peer); `[::1]:port` forms are not sent by proxies. */
function normalize(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1]! : address;
}
