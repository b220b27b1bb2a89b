// The written forms of the addresses a session is dialled at (docs/events.md#routing-by-address):
// E.164 numbers and SIP URIs. The applications service stores and resolves addresses in these
// forms and the dispatcher keys its cache of them by the same forms, so a number written
// "14075550100", "+1 407-555-0100" or "tel:+14075550100" is one address everywhere.

const E164 = /^\+[1-9]\d{6,14}$/;

export function isE164(s: string): boolean {
  return E164.test(s);
}

/**
 * The E.164 form of a dialled or written number, or undefined: accepts a `tel:` prefix, `tel:`
 * parameters (";phone-context=..."), the "+" left out, and spaces, dots, dashes and parentheses.
 */
export function normaliseNumber(input: string): string | undefined {
  let s = input.trim();
  if (/^tel:/i.test(s)) s = s.slice(4).split(';')[0]!;
  s = s.replace(/[\s.()-]/g, '');
  if (!s.startsWith('+')) s = `+${s}`;
  return isE164(s) ? s : undefined;
}

/**
 * A SIP URI in its stored form: "sip:user@host" with the scheme and host lower-case, without a
 * display name, angle brackets, port, parameters or headers. Undefined when it is none.
 */
export function normaliseSipUri(input: string): string | undefined {
  let s = input.trim();
  const angle = /<([^>]*)>/.exec(s);
  if (angle) s = angle[1]!.trim();
  const m = /^sips?:([^@;?\s]+)@([^;?\s]+)(?:[;?]\S*)?$/i.exec(s);
  if (!m) return undefined;
  const host = m[2]!.replace(/:\d{1,5}$/, '').toLowerCase();
  if (!/^[a-z0-9.-]{1,253}$/.test(host)) return undefined;
  return `sip:${m[1]}@${host}`;
}

/** A dialled address in its stored form. */
export interface DialledAddress {
  type: 'number' | 'sip';
  address: string;
}

/**
 * The stored form of a dialled address: a SIP URI when it is written as one (or, without its
 * scheme, when `network` is SIP), else an E.164 number (PSTN, SMS and any other network).
 * Undefined when it is neither, so no application can own it.
 */
export function dialledAddress(input: string, network?: string | null): DialledAddress | undefined {
  let s = input.trim();
  const sipNetwork = network?.trim().toUpperCase() === 'SIP';
  if (sipNetwork && !/^(?:[^<]*<)?sips?:/i.test(s) && s.includes('@')) s = `sip:${s}`;
  if (/^(?:[^<]*<)?sips?:/i.test(s)) {
    const address = normaliseSipUri(s);
    return address ? { type: 'sip', address } : undefined;
  }
  const address = normaliseNumber(s);
  return address ? { type: 'number', address } : undefined;
}
