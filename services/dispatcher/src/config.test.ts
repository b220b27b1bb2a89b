import { describe, expect, it } from 'vitest';
import { ConfigError } from '@switchboard/config';
import { loadConfig } from './config';

describe('dispatcher configuration', () => {
  it('when nothing is set, then the documented defaults apply', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      NATS_URL: 'nats://127.0.0.1:4222',
      APPLICATIONS_GRPC_URL: '127.0.0.1:50051',
      WEBHOOKS_GRPC_URL: '127.0.0.1:50052',
      OPS_PORT: 8083,
      DELIVERY_TIMEOUT_MS: 15_000,
      DELIVERY_RETRY_SCHEDULE: [
        5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
      ],
      DELIVERY_ALLOWED_CIDRS: [],
      DELIVERY_BREAKER_RESET_TIMEOUT: 30_000,
      SESSION_DEADLINE_MS: 10_000,
      SESSION_TIMEOUT_MS: 5000,
      LOG_LEVEL: 'info',
    });
    expect(c).not.toHaveProperty('SESSION_SIGNING_SECRET');
  });

  it('when the backlog settings are unset, then a delivery may wait the whole schedule plus a day, 10,000 per account', () => {
    const c = loadConfig({});
    expect(c.DELIVERY_MAX_AGE).toBe(c.DELIVERY_RETRY_SCHEDULE.reduce((a, b) => a + b, 0) + 86_400_000);
    expect(c.DELIVERY_BACKLOG_PER_ACCOUNT).toBe(10_000);
    expect(c.DELIVERY_BACKLOG_BYTES_PER_ACCOUNT).toBe(32 * 1024 * 1024);
    expect(c.DELIVERY_BACKLOG_RECHECK).toBe(600_000);
    expect(c.RECORD_BUFFER_MAX_BYTES).toBe(64 * 1024 * 1024);
    expect(loadConfig({ DELIVERY_MAX_AGE: '2m' }).DELIVERY_MAX_AGE).toBe(120_000);
  });

  it('when test values are set, then they are parsed', () => {
    const c = loadConfig({
      DELIVERY_RETRY_SCHEDULE: '200ms,400ms,800ms',
      DELIVERY_ALLOWED_CIDRS: '127.0.0.0/8,::1/128',
    });
    expect(c.DELIVERY_RETRY_SCHEDULE).toEqual([200, 400, 800]);
    expect(c.DELIVERY_ALLOWED_CIDRS.map((x) => x.text)).toEqual(['127.0.0.0/8', '::1/128']);
  });

  it('when NATS_URL lists three cluster members, then all three are kept', () => {
    const urls = 'nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224';
    expect(loadConfig({ NATS_URL: urls }).NATS_URL).toBe(urls);
  });

  it.each([
    ['DELIVERY_RETRY_SCHEDULE', 'soon'],
    ['NATS_URL', 'nats://127.0.0.1:4222,127.0.0.1:4223'],
    ['DELIVERY_ALLOWED_CIDRS', '10.0.0.0/33'],
    ['DELIVERY_TIMEOUT_MS', 'fast'],
    ['NATS_URL', 'http://x'],
    ['DELIVERY_BREAKER_WINDOW', '1001ms'],
    ['DELIVERY_BREAKER_ERROR_THRESHOLD_PERCENT', '0'],
    ['SESSION_TIMEOUT_MS', 'fast'],
    ['SESSION_TIMEOUT_MS', '20000'],
    ['SESSION_DEADLINE_MS', '50'],
    ['DELIVERY_HOST_CONCURRENCY', '100'],
    ['JETSTREAM_ACK_WAIT', '10s'],
    ['DELIVERY_MAX_AGE', '500ms'],
    ['DELIVERY_MAX_AGE', '10d'],
    ['DELIVERY_BACKLOG_PER_ACCOUNT', '0'],
    ['DELIVERY_BACKLOG_BYTES_PER_ACCOUNT', '100'],
    ['DELIVERY_BACKLOG_RECHECK', '10ms'],
    ['RECORD_BUFFER_MAX_BYTES', '10'],
  ])('when %s is %s, then start stops with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
