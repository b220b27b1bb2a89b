// Short version of `npm run proof -- ssrf`: every notation of loopback, private, link-local and
// metadata addresses is refused at create unless allow-listed, and redirects are never followed.
import { expect, it } from 'vitest';
import { ssrf } from '../../proof/scenarios/ssrf';

it('when URLs name forbidden addresses in any notation or redirect there, then they are refused or not followed', async () => {
  const r = await ssrf({ privatePostgres: false });
  expect(r.figures).toMatchObject({ acceptedWithoutAllowList: [], nearMissesAccepted: [], allowListedRefused: [], redirectsFollowed: 0 });
  expect(r.failures).toEqual([]);
}, 120_000);
