// docs/configuration.md is generated from the services' configuration schemas (scripts/config-docs.ts):
// it must say what the schemas say, so a variable added, removed or changed without
// `npm run docs:config` fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_DOC, renderConfigurationDocs } from '../../scripts/config-docs';

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` writes from the configuration schemas', () => {
    const written = readFileSync(CONFIGURATION_DOC, 'utf8');
    expect(written, 'docs/configuration.md is out of date: run `npm run docs:config`').toBe(renderConfigurationDocs());
  });

  it('lists every variable of every service with a description', () => {
    const doc = renderConfigurationDocs();
    for (const name of [
      'PORT',
      'SECRETS_KEY',
      'DELIVERY_DISABLE_AFTER',
      'DELIVERY_RETRY_SCHEDULE',
      'PASSWORD_SCRYPT_N',
    ])
      expect(doc).toMatch(new RegExp(`\\| \`${name}\` +\\|`));
    expect(doc).toMatch(/\| `DELIVERY_RETRY_SCHEDULE` +\| `5s,5m,30m,2h,5h,10h,14h,20h,24h` +\|/);
    expect(doc).toMatch(/\| `SECRETS_KEY` +\| required +\|/);
  });
});
