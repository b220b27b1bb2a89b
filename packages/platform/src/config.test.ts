import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, natsServers, parseConfig } from './config';

const schema = z.object({ NATS_URL: natsServers('nats://127.0.0.1:4222') });

describe('NATS_URL', () => {
  it('when unset, then the default single server applies', () => {
    expect(parseConfig(schema, {}).NATS_URL).toBe('nats://127.0.0.1:4222');
  });

  it('when it lists the members of a cluster, then every URL is kept, blanks removed', () => {
    const v = 'nats://nats-0.nats-headless:4222, nats://nats-1.nats-headless:4222 ,tls://nats-2.nats-headless:4222';
    expect(parseConfig(schema, { NATS_URL: v }).NATS_URL).toBe('nats://nats-0.nats-headless:4222,nats://nats-1.nats-headless:4222,tls://nats-2.nats-headless:4222');
  });

  it.each(['http://nats:4222', 'nats://a:4222,http://b:4222', 'nats://a:4222,', 'nats://a:4222,,nats://b:4222', 'nats://', 'nats-0:4222'])(
    'when it is %s, then start stops with a message naming NATS_URL and the bad entry',
    (v) => {
      expect(() => parseConfig(schema, { NATS_URL: v })).toThrow(ConfigError);
      expect(() => parseConfig(schema, { NATS_URL: v })).toThrow(/NATS_URL: must be a comma-separated list/);
    },
  );
});
