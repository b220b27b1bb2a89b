import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, duration, natsServers, parseConfig, parseDuration } from './config';

const schema = z.object({ NATS_URL: natsServers('nats://127.0.0.1:4222') });

describe('NATS_URL', () => {
  it('when unset, then the default single server applies', () => {
    expect(parseConfig(schema, {}).NATS_URL).toBe('nats://127.0.0.1:4222');
  });

  it('when it lists the members of a cluster, then every URL is kept, blanks removed', () => {
    const v = 'nats://nats-0.nats-headless:4222, nats://nats-1.nats-headless:4222 ,tls://nats-2.nats-headless:4222';
    expect(parseConfig(schema, { NATS_URL: v }).NATS_URL).toBe(
      'nats://nats-0.nats-headless:4222,nats://nats-1.nats-headless:4222,tls://nats-2.nats-headless:4222',
    );
  });

  it.each([
    'http://nats:4222',
    'nats://a:4222,http://b:4222',
    'nats://a:4222,',
    'nats://a:4222,,nats://b:4222',
    'nats://',
    'nats-0:4222',
  ])('when it is %s, then start stops with a message naming NATS_URL and the bad entry', (v) => {
    expect(() => parseConfig(schema, { NATS_URL: v })).toThrow(ConfigError);
    expect(() => parseConfig(schema, { NATS_URL: v })).toThrow(/NATS_URL: must be a comma-separated list/);
  });
});

describe('durations', () => {
  it('when given with a unit, in milliseconds, or in ISO 8601, then they parse to milliseconds', () => {
    expect(parseDuration('5d')).toBe(432_000_000);
    expect(parseDuration('1500')).toBe(1500);
    expect(parseDuration('P5D')).toBe(432_000_000);
    expect(parseDuration('PT2S')).toBe(2000);
    expect(parseDuration('pt0.5s')).toBe(500);
    expect(parseDuration('P1DT12H30M')).toBe(131_400_000);
    expect(parseDuration('P1W')).toBe(604_800_000);
  });

  it.each(['P', 'PT', 'P1DT', 'P1Y', 'P1M', '5 days', '-5s', 'PT-1S'])(
    'when it is %s, then it is refused, naming the variable',
    (v) => {
      expect(() => parseDuration(v)).toThrow(/not a duration/);
      expect(() =>
        parseConfig(z.object({ DELIVERY_DISABLE_AFTER: duration('5d') }), { DELIVERY_DISABLE_AFTER: v }),
      ).toThrow(/DELIVERY_DISABLE_AFTER/);
    },
  );
});
