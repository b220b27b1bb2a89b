import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_DATABASE_URL } from '../../../test/support/infra';
import { isoTimestamp, isoTimestampOrNull } from './timestamps';

const parse = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;
/** What the services did before: pg's Date, then toISOString. */
const viaDate = (text: string) => new Date(parse(text)).toISOString();

describe('isoTimestamp', () => {
  it('writes a UTC timestamptz text as toISOString would', () => {
    expect(isoTimestamp('2026-11-24 21:55:13.123456+00')).toBe('2026-11-24T21:55:13.123Z');
    expect(isoTimestamp('2026-11-24 21:55:13.999999+00')).toBe('2026-11-24T21:55:13.999Z');
    expect(isoTimestamp('2026-11-24 21:55:13.12+00')).toBe('2026-11-24T21:55:13.120Z');
    expect(isoTimestamp('2026-11-24 21:55:13.5+00')).toBe('2026-11-24T21:55:13.500Z');
    expect(isoTimestamp('2026-11-24 21:55:13.029+00')).toBe('2026-11-24T21:55:13.029Z');
    expect(isoTimestamp('2026-11-24 21:55:13+00')).toBe('2026-11-24T21:55:13.000Z');
    expect(isoTimestamp('0099-01-02 03:04:05.06+00')).toBe('0099-01-02T03:04:05.060Z');
  });

  it('agrees with the Date pg makes for any instant and fraction', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 999 }),
        fc.integer({ min: 0, max: 6 }),
        (d, micros, digits) => {
          const base = d.toISOString().slice(0, 19).replace('T', ' ');
          const fraction =
            digits === 0
              ? ''
              : `.${String(d.getUTCMilliseconds() * 1000 + micros)
                  .padStart(6, '0')
                  .slice(0, digits)}`;
          const text = `${base}${fraction}+00`;
          expect(isoTimestamp(text)).toBe(viaDate(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads any other form through pg and a Date, as before', () => {
    for (const text of ['2026-11-24 22:55:13.123+01', '2026-11-24 21:55:13.123-05:30', '0044-03-15 12:00:00+00 BC'])
      expect(isoTimestamp(text)).toBe(viaDate(text));
    expect(() => isoTimestamp('infinity')).toThrow(RangeError);
    expect(isoTimestampOrNull(null)).toBeNull();
    expect(isoTimestampOrNull('2026-11-24 21:55:13+00')).toBe('2026-11-24T21:55:13.000Z');
  });
});

describe('isoTimestamp against Postgres', () => {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  beforeAll(async () => {
    await client.connect();
    await client.query("set time zone 'UTC'");
  });
  afterAll(() => client.end());

  it('turns the text of a UTC session into what its Date would give', async () => {
    const { rows } = await client.query<{ t: string; d: Date }>(
      `select t::text as t, t as d from (values (now()), (timestamptz '2026-01-02 03:04:05.000001+00'), (timestamptz '2026-01-02 03:04:05.9999+00'), (timestamptz '2026-01-02 03:04:05+00'), (timestamptz '1970-01-01 00:00:00.5+00')) as v(t)`,
    );
    for (const r of rows) expect(isoTimestamp(r.t)).toBe(r.d.toISOString());
  });
});
