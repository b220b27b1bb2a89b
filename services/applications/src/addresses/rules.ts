// What an address is: its types, and the one written form of each value (so lookups by path, by
// claim and by the dispatcher's dialled address all meet the same stored row).
import { AppError } from '@switchboard/errors';
import { isAddressToken, normaliseNumber, normaliseSipUri } from '@switchboard/events';

export const ADDRESS_TYPES = ['number', 'token', 'sip'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];
export const CHANNELS = ['voice', 'messaging'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Instant-messaging address types of the Tropo era, refused with their own explanation. */
const RETIRED_TYPES = ['aim', 'jabber', 'msn', 'yahoo', 'gtalk', 'skype'];

/** The address type named by a request (any case); unknown and retired types are a 400. */
export function parseType(input: string | undefined): AddressType {
  const t = (input ?? '').trim().toLowerCase();
  if ((ADDRESS_TYPES as readonly string[]).includes(t)) return t as AddressType;
  if (RETIRED_TYPES.includes(t)) {
    throw AppError.invalid(
      [{ field: 'type', message: `${t} addresses are no longer supported; use number, token or sip` }],
      `${t} addresses are no longer supported`,
    );
  }
  if (!t) throw AppError.invalid([{ field: 'type', message: 'is required: number, token or sip' }]);
  throw AppError.invalid([{ field: 'type', message: 'must be number, token or sip' }]);
}

export function parseChannel(input: string | undefined): Channel {
  const c = (input ?? '').trim().toLowerCase();
  if ((CHANNELS as readonly string[]).includes(c)) return c as Channel;
  throw AppError.invalid([
    {
      field: 'channel',
      message: input === undefined ? 'is required for a token: voice or messaging' : 'must be voice or messaging',
    },
  ]);
}

// The stored form of a SIP URI is shared with the dispatcher, which routes sessions by SIP address.
export { normaliseSipUri };

/** The address a request names in its path (`type` and `value`), in its stored form; a 400 when malformed. */
export function addressOf(req: { type?: string; value: string }): { type: AddressType; value: string } {
  const type = parseType(req.type);
  return { type, value: normaliseValue(type, req.value) };
}

/** The stored form of an address value of this type, as it appears in a path; a 400 when malformed. */
export function normaliseValue(type: AddressType, value: string): string {
  const v =
    type === 'number'
      ? normaliseNumber(value)
      : type === 'sip'
        ? normaliseSipUri(value)
        : isAddressToken(value)
          ? value
          : undefined;
  if (v === undefined) {
    const what =
      type === 'number'
        ? 'an E.164 phone number'
        : type === 'sip'
          ? 'a SIP URI (sip:user@host)'
          : 'a token this API handed out';
    throw AppError.invalid([{ field: 'address', message: `must be ${what}` }]);
  }
  return v;
}
