import { randomBytes } from 'node:crypto';
import { AppError, type FieldError } from '@switchboard/errors';
import type { AuditContext } from '@switchboard/db';
import type { ClaimAddressRequest__Output } from '@switchboard/proto/generated/switchboard/applications/v1/ClaimAddressRequest';
import { readOwned as readApplication } from '../applications/repository.ts';
import type { Deps } from '../context.ts';
import { normaliseNumber, normalisePrefix } from '../numbers/e164.ts';
import { announceChange, auditChange, type AddressChange } from './events.ts';
import {
  checkTokenCap,
  claimByPrefix,
  claimExact,
  insertGenerated,
  readByValue,
  type AddressView,
} from './repository.ts';
import { parseChannel, parseType, type AddressType, type Channel } from './rules.ts';

/** Fields a claim of each type may carry (besides type). */
const FIELDS: Record<AddressType, readonly (keyof ClaimAddressRequest__Output)[]> = {
  number: ['prefix', 'number', 'city', 'state'],
  token: ['channel'],
  sip: [],
};
const ALL_FIELDS = ['prefix', 'number', 'city', 'state', 'channel'] as const;

type Claim =
  | { type: 'number'; prefix: string; city?: string; state?: string }
  | { type: 'number'; number: string }
  | { type: 'token'; channel: Channel }
  | { type: 'sip' };

/** The claim a request asks for, or a 400 naming every field in the wrong place. */
function parseClaim(req: ClaimAddressRequest__Output): Claim {
  const type = parseType(req.type);
  const errors: FieldError[] = [];
  for (const f of ALL_FIELDS) {
    if (req[f] !== undefined && !FIELDS[type].includes(f))
      errors.push({ field: f, message: `is not used by ${type} addresses` });
  }
  if (errors.length) throw AppError.invalid(errors);
  if (type === 'token') return { type, channel: parseChannel(req.channel) };
  if (type === 'sip') return { type };
  if (req.prefix !== undefined && req.number !== undefined)
    throw AppError.invalid([{ field: 'number', message: 'give either prefix or number, not both' }]);
  if (req.number !== undefined) {
    const number = normaliseNumber(req.number);
    if (!number)
      throw AppError.invalid([{ field: 'number', message: 'must be an E.164 phone number such as +14075550123' }]);
    if (req.city !== undefined || req.state !== undefined)
      throw AppError.invalid([
        {
          field: req.city !== undefined ? 'city' : 'state',
          message: 'chooses among the numbers of a prefix; it is not used with number',
        },
      ]);
    return { type, number };
  }
  if (req.prefix === undefined)
    throw AppError.invalid([{ field: 'prefix', message: 'is required for a number (or give number)' }]);
  const prefix = normalisePrefix(req.prefix);
  if (!prefix)
    throw AppError.invalid([{ field: 'prefix', message: 'must be the leading digits of E.164 numbers, such as 1407' }]);
  const city = req.city?.trim() || undefined;
  const state = req.state?.trim() || undefined;
  return { type, prefix, ...(city ? { city } : {}), ...(state ? { state } : {}) };
}

/**
 * Gives one of the account's applications a new address: a free number of the inventory (by
 * prefix, or exactly), a new session token, or a new SIP address. The claim and its
 * addresses.changed event and its audit entry commit together; nothing is claimed when anything fails.
 */
export async function claimAddress(
  deps: Deps,
  req: ClaimAddressRequest__Output,
  audit?: AuditContext,
): Promise<AddressView> {
  const claim = parseClaim(req);
  await readApplication(deps.orm.em, req.accountId, req.applicationId);
  const value = await deps.orm.em.fork().transactional(async (tx) => {
    let v: string;
    if (claim.type === 'number' && 'number' in claim) {
      if (!(await claimExact(tx, req.applicationId, claim.number)))
        throw new AppError('conflict', `number ${claim.number} is not available`);
      v = claim.number;
    } else if (claim.type === 'number') {
      const got = await claimByPrefix(tx, req.applicationId, claim.prefix, claim.city, claim.state);
      const where = [claim.city, claim.state].filter(Boolean).join(', ');
      if (!got)
        throw new AppError('conflict', `no free number starts with +${claim.prefix}${where ? ` in ${where}` : ''}`);
      v = got;
    } else if (claim.type === 'token') {
      await checkTokenCap(tx, req.applicationId, deps.limits.tokensPerApplication);
      v = randomBytes(32).toString('hex');
      await insertGenerated(tx, 'token', v, req.applicationId, claim.channel);
    } else {
      v = `sip:${randomBytes(10).toString('hex')}@${deps.sipDomain}`;
      await insertGenerated(tx, 'sip', v, req.applicationId, null);
    }
    const change: AddressChange = {
      type: claim.type,
      address: v,
      applicationId: req.applicationId,
      previousApplicationId: null,
      accountId: req.accountId,
    };
    announceChange(tx, change);
    auditChange(tx, 'address.claim', change, audit);
    return v;
  });
  deps.outbox.kick();
  const view = await readByValue(deps.orm.em, claim.type, value);
  if (!view) throw AppError.notFound('address');
  return view;
}
