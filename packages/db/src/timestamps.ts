// Timestamps read as text: what a row's `timestamptz` column becomes in a message (ISO 8601, as
// Date.toISOString writes it) without a Date in between.
import pg from 'pg';

/** A timestamptz as Postgres writes it to a UTC session (DateStyle ISO): `2026-11-24 21:55:13.123456+00`. */
const UTC_TEXT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;

const parseTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (
  text: string,
) => Date | number;

/**
 * The ISO 8601 form (`2026-11-24T21:55:13.123Z`) of a timestamptz column read as text (`col::text`):
 * the same string as `toISOString()` of the Date pg would have made of it (fractions beyond the
 * millisecond cut off, not rounded), built from the text. Text in any other form (another time
 * zone or DateStyle, years before 1 or after 9999, infinity) goes through pg's parser and a Date
 * as before, with the same result or the same RangeError.
 */
export function isoTimestamp(text: string): string {
  if (!UTC_TEXT.test(text)) return new Date(parseTimestamptz(text)).toISOString();
  const n = text.length;
  // 22 characters without a fraction; with one, 24 (".1+00") to 29 (".123456+00").
  const ms =
    n === 22 ? '.000' : n >= 26 ? text.slice(19, 23) : n === 25 ? `${text.slice(19, 22)}0` : `${text.slice(19, 21)}00`;
  return `${text.slice(0, 10)}T${text.slice(11, 19)}${ms}Z`;
}

/** isoTimestamp of a nullable column. */
export function isoTimestampOrNull(text: string | null): string | null {
  return text === null ? null : isoTimestamp(text);
}
