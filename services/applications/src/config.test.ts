import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { loadConfig as load } from './config';

/** SECRETS_KEY is required; any valid key will do here. */
const loadConfig = (env: Record<string, string>) => load({ SECRETS_KEY: randomBytes(32).toString('base64'), ...env });

describe('SIP_DOMAIN', () => {
  it('when unset, then SIP addresses use sip.switchboard.local; a DNS name is kept lower-case', () => {
    expect(loadConfig({}).SIP_DOMAIN).toBe('sip.switchboard.local');
    expect(loadConfig({ SIP_DOMAIN: ' SIP.Example.COM ' }).SIP_DOMAIN).toBe('sip.example.com');
  });

  it('when it is not a DNS name, then the service does not start and the message names the variable', () => {
    for (const bad of ['sip example.com', 'sip:example.com', '-bad.example.com', 'a..b', `${'x'.repeat(64)}.com`]) {
      expect(() => loadConfig({ SIP_DOMAIN: bad }), bad).toThrow(/SIP_DOMAIN: must be a DNS name/);
    }
  });
});
