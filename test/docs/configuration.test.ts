// docs/configuration.md is generated from the services' configuration schemas (scripts/config-docs.ts):
// it must say what the schemas say, so a variable added, removed or changed without
// `npm run docs:config` fails here.
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_DOC, renderConfigurationDocs } from '../../scripts/config-docs';
import { itIsWhatItsCommandWrites } from './generated';

describe('docs/configuration.md', () => {
  itIsWhatItsCommandWrites(CONFIGURATION_DOC, 'npm run docs:config', renderConfigurationDocs);

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
