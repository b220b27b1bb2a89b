import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { loadConfig as load } from './config';

/** SECRETS_KEY is required; any valid key will do here. */
const loadConfig = (env: Record<string, string>) => load({ SECRETS_KEY: randomBytes(32).toString('base64'), ...env });

describe('DELIVERY_RETENTION_DAYS', () => {
  it('when 0, then the service does not start: delivery records are never kept forever', () => {
    expect(() => loadConfig({ DELIVERY_RETENTION_DAYS: '0' })).toThrow(/DELIVERY_RETENTION_DAYS: must be at least 1/);
    expect(loadConfig({}).DELIVERY_RETENTION_DAYS).toBe(30);
    expect(loadConfig({ DELIVERY_RETENTION_DAYS: '1' }).DELIVERY_RETENTION_DAYS).toBe(1);
  });
});
