// Sessions through the console against the real stack: a session launched with a token (the
// Session API's POST) whose application fails at its primary URL and answers at its fallback; the
// sessions list, the session's timeline in the inspector, and the sessions chart counting it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { answer, checkPage, consoleHarness, expectClean, loopbackReceiver } from './harness.ts';
import { tabTo } from './keys.ts';

const h = consoleHarness();
const receiver = loopbackReceiver();

const SAY = JSON.stringify({ tropo: [{ say: [{ value: 'Thanks for calling' }] }] });

describe('sessions', () => {
  it('when a session POST is answered by the fallback URL, then the list shows it and its timeline shows both attempts, what the application answered and the instructions', async () => {
    const account = await h.account();
    const base = `/console/${randomUUID()}`;
    receiver().on(`${base}/voice`, answer(500, 'text/plain', 'primary is down'));
    receiver().on(`${base}/fallback`, answer(200, 'application/json', SAY));
    const { appId, token } = await h.voiceApplication(account, {
      name: 'Front desk',
      voiceUrl: receiver().url(`${base}/voice`),
      voiceFallbackUrl: receiver().url(`${base}/fallback`),
    });

    const cp = await h.signIn(account, `/console/sessions?application=${appId}`);
    const { page } = cp;
    await page.getByRole('heading', { name: 'Sessions of Front desk' }).waitFor();
    await page.getByText('No sessions yet').waitFor();
    const chart = page.getByRole('img', { name: /^Sessions of Front desk/ });
    await expect
      .poll(() => chart.getAttribute('aria-label'))
      .toMatch(/: 0 answered, 0 answered by the fallback, 0 failed$/);
    await checkPage(cp, 'sessions-empty');

    // The Session API: a POST with the token (no credentials).
    const id = await h.launch(token, { customer: 'Ann' });

    const row = page.getByRole('link', { name: /^Session of .*, Answered by the fallback$/ });
    await row.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => chart.getAttribute('aria-label'), { timeout: 20_000 })
      .toMatch(/: 0 answered, 1 answered by the fallback, 0 failed$/);
    // Filters: none failed; one answered by the fallback.
    const filters = page.getByRole('form', { name: 'Filter the sessions' });
    await filters.getByLabel('Outcome').selectOption('failed');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No sessions match these filters.').waitFor();
    expect(new URL(page.url()).searchParams.get('outcome')).toBe('failed');
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await row.waitFor();
    await checkPage(cp, 'sessions');

    await row.click();
    await page.getByRole('heading', { name: `Session ${id}` }).waitFor();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    // The primary URL failed (and was tried again), then the fallback answered.
    await timeline.getByRole('heading', { name: /POST to the fallback URL$/ }).waitFor();
    const primary = await timeline.getByRole('heading', { name: /POST to the primary URL$/ }).count();
    expect(primary).toBeGreaterThanOrEqual(1);
    const answers = await page.getByLabel(/^What the application answered to attempt \d+$/).allTextContents();
    expect(answers).toEqual([...Array(primary).fill('primary is down'), SAY]);
    expect(await page.getByLabel('The instructions').textContent()).toBe(SAY);
    expect(await timeline.getByText(receiver().url(`${base}/voice`)).count()).toBe(primary);
    expect(await timeline.getByText(receiver().url(`${base}/fallback`)).count()).toBe(1);
    await checkPage(cp, 'session');

    // Back by keyboard: the link to the list.
    await page.getByRole('link', { name: 'Back to the sessions' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sessions of Front desk' }).waitFor();

    // The session deliveries: the last attempt (to the fallback) succeeded; resending it POSTs the
    // session to the application's current voice URL, which still fails.
    await page.getByRole('link', { name: /^Delivery of .*, succeeded$/ }).click();
    await page.getByRole('heading', { name: /^Delivery of / }).waitFor();
    await page.getByRole('button', { name: 'Resend' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Resen' }).textContent(), { timeout: 15_000 })
      .toMatch(/^Resent: failed, 500 in \d+ ms\.$/);
    // Every attempt, the resend's included, shows the session body sent and what the application answered.
    const sent = JSON.stringify(JSON.parse(receiver().at(`${base}/voice`)[0]!.raw), null, 2);
    const attemptBodies = page.getByLabel(/^Request body of attempt \d+$/);
    await expect
      .poll(() => page.getByLabel(/^Response body of attempt \d+$/).allTextContents())
      .toEqual([...Array(primary).fill('primary is down'), SAY, 'primary is down']);
    expect(await attemptBodies.allTextContents()).toEqual(Array(primary + 2).fill(sent));
    await checkPage(cp, 'session-delivery');
    expectClean(cp);
  });
  it('when a session fails (the application answers 500 and has no fallback), then the inspector says why, by keyboard alone', async () => {
    const account = await h.account();
    const path = `/console/${randomUUID()}/voice`;
    receiver().on(path, answer(500, 'text/html', '<h1>Internal error</h1>'));
    const { appId, token } = await h.voiceApplication(account, {
      name: 'Broken line',
      voiceUrl: receiver().url(path),
    });
    const id = await h.launch(token);
    await expect
      .poll(async () => (await h.request(account, 'GET', `/v1/sessions/${id}`)).status, { timeout: 20_000 })
      .toBe(200);

    const cp = await h.signIn(account, `/console/sessions?application=${appId}`);
    const { page } = cp;
    const link = page.getByRole('link', { name: /^Session of .*, Failed$/ });
    await link.waitFor();
    // Tab to the session's link and open it with Enter.
    await tabTo(page, link);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Session ${id}` }).waitFor();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByRole('heading', { name: 'Failed' }).waitFor();
    const reason = (await h.read(account, `/v1/sessions/${id}`)) as {
      failure: { reason: string };
    };
    expect(await timeline.getByText(reason.failure.reason, { exact: true }).count()).toBe(1);
    expect(await page.getByLabel('What the application answered to attempt 1').textContent()).toBe(
      '<h1>Internal error</h1>',
    );
    expect(await page.getByLabel('The instructions').count()).toBe(0);
    await checkPage(cp, 'session-failed');
    expectClean(cp);
  });
});
