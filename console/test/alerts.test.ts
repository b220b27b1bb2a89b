// Alerts through the console against the real stack: a session launched with a token whose
// application answers HTML raises app.not_json; the Alerts page lists it, filters, and links to the
// attempt in the session inspector; the application's page shows its alerts of the last 24 hours.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { answer, checkPage, consoleHarness, expectClean, loopbackReceiver } from './harness.ts';

const h = consoleHarness();
const receiver = loopbackReceiver();

describe('alerts', () => {
  it('when an application answers HTML, then the Alerts page lists app.not_json, filters by code, and links to the failing attempt', async () => {
    const account = await h.account();
    const base = `/console/${randomUUID()}`;
    receiver().on(`${base}/voice`, answer(200, 'text/html', '<html>Oops</html>'));
    const { token } = await h.voiceApplication(account, {
      name: 'Broken desk',
      voiceUrl: receiver().url(`${base}/voice`),
    });
    const cp = await h.signIn(account, '/console/alerts');
    const { page } = cp;
    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
    await page.getByText('No alerts match').waitFor();
    await checkPage(cp, 'alerts-empty');

    const id = await h.launch(token);

    const codes = page.locator('tbody tr td:nth-child(2)');
    // The page looks again every 5 s.
    await expect.poll(() => codes.allTextContents(), { timeout: 20_000 }).toEqual(['app.not_json']);
    await checkPage(cp, 'alerts');

    await page.getByLabel('Code').selectOption('app.timeout');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No alerts match').waitFor();
    await page.getByLabel('Code').selectOption('app.not_json');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('link', { name: /^Open the attempt that raised app\.not_json/ }).click();
    await page.getByRole('heading', { name: `Session ${id}` }).waitFor();
    expect(new URL(page.url()).hash).toBe('#attempt-1');
    await page.locator('#attempt-1').waitFor();

    // The application's page shows its alerts of the last 24 hours, each opening its attempt.
    await page.getByRole('link', { name: 'The application' }).click();
    const recent = page.getByRole('region', { name: 'Alerts of the last 24 hours' });
    await recent.getByText('app.not_json').waitFor();
    await checkPage(cp, 'application-alerts');
    await recent.getByRole('link', { name: /^Open the attempt that raised app\.not_json/ }).click();
    await page.getByRole('heading', { name: `Session ${id}` }).waitFor();
    expectClean(cp);
  });
});
