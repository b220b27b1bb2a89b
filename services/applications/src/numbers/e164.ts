// Phone numbers in E.164 form ("+" and 7 to 15 digits, no leading zero): parsing what people and
// telephony systems write, ranges for the inventory, and the forms shown in addresses.
import { normaliseNumber } from '@switchboard/events';
import { AppError } from '@switchboard/errors';

// What a number is, and its written forms, are shared with the dispatcher, which routes sessions by number.
export { isE164, normaliseNumber } from '@switchboard/events';

/** Most numbers one `add FIRST..LAST` range may hold. */
export const RANGE_MAX = 100_000;
/** Digits of the E.164 number (after "+") that name its exchange: for NANP numbers "1" + area code. */
export const EXCHANGE_DIGITS = 4;

/** The exchange prefix of an E.164 number (see EXCHANGE_DIGITS). */
export function exchangeOf(number: string): string {
  return number.slice(1, 1 + EXCHANGE_DIGITS);
}

/** "+1 407-555-0100" for NANP numbers; other countries keep the E.164 form. */
export function displayNumber(number: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(number);
  return m ? `+1 ${m[1]}-${m[2]}-${m[3]}` : number;
}

/** A claim's prefix: digits (a leading "+" is allowed), 1 to 15 of them. */
export function normalisePrefix(input: string): string | undefined {
  const s = input.trim().replace(/^\+/, '');
  return /^[1-9]\d{0,14}$/.test(s) ? s : undefined;
}

/**
 * The numbers an inventory argument names: one E.164 number, or `FIRST..LAST` (both E.164, the
 * same length, FIRST <= LAST, at most RANGE_MAX numbers).
 */
export function expandNumbers(arg: string): string[] {
  const [first, last, ...rest] = arg.split('..');
  if (rest.length > 0) throw new AppError('invalid_request', `${arg}: a range is FIRST..LAST`);
  const a = normaliseNumber(first!);
  if (!a || !first!.trim().startsWith('+'))
    throw new AppError('invalid_request', `${first}: not an E.164 number (write it as +<country code><number>)`);
  if (last === undefined) return [a];
  const b = normaliseNumber(last);
  if (!b || !last.trim().startsWith('+'))
    throw new AppError('invalid_request', `${last}: not an E.164 number (write it as +<country code><number>)`);
  if (a.length !== b.length)
    throw new AppError('invalid_request', `${arg}: both ends of a range must have the same number of digits`);
  const from = BigInt(a.slice(1));
  const to = BigInt(b.slice(1));
  if (to < from) throw new AppError('invalid_request', `${arg}: the range ends before it starts`);
  if (to - from + 1n > BigInt(RANGE_MAX))
    throw new AppError('invalid_request', `${arg}: a range holds at most ${RANGE_MAX} numbers`);
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(`+${n.toString()}`);
  return out;
}
