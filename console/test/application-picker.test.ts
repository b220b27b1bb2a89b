// The application picker (Sessions' "Application", Webhooks' "Level") with an account of 300
// applications: it draws at most 50 options, typing narrows them, and the keyboard alone chooses.
import { describe, expect, it } from 'vitest';
import { checkPage, consoleHarness, expectClean } from './harness.ts';
import { tabTo } from './keys.ts';

const h = consoleHarness();
const COUNT = 300;

describe('application picker', () => {
  it('when the account has 300 applications, then the picker lists 50 at a time, narrows as the tenant types and chooses by keyboard alone', async () => {
    const account = await h.account();
    const ids = new Map<string, string>();
    const create = async (i: number) => {
      const name = `App ${String(i).padStart(3, '0')}`;
      ids.set(
        name,
        await h.create(account, '/v1/applications', {
          name,
          voiceUrl: `https://example.com/${i}.json`,
        }),
      );
    };
    // One first, which puts the password in the gateway's cache; then 25 at a time.
    await create(1);
    for (let i = 2; i <= COUNT; i += 25)
      await Promise.all(Array.from({ length: Math.min(25, COUNT + 1 - i) }, (_, j) => create(i + j)));

    const cp = await h.signIn(account, '/console/sessions');
    const { page } = cp;
    const picker = page.getByRole('combobox', { name: 'Application', exact: true });
    const options = page.getByRole('listbox', { name: 'Matches' }).getByRole('option');
    // Without one in the address, the first application by name.
    await page.getByRole('heading', { name: 'Sessions of App 001' }).waitFor();
    expect(await picker.inputValue()).toBe('App 001');
    expect(new URL(page.url()).searchParams.get('application')).toBe(ids.get('App 001'));

    await tabTo(page, picker);
    await page.keyboard.press('ArrowDown');
    await page.getByText(`${COUNT} applications, the first 50 listed`).waitFor();
    expect(await picker.getAttribute('aria-expanded')).toBe('true');
    expect(await options.count()).toBe(50);
    // Opened on the chosen one; Down moves the active option.
    expect(await options.and(page.getByRole('option', { selected: true })).textContent()).toMatch(/^App 001/);
    await page.keyboard.press('ArrowDown');
    expect(await options.and(page.getByRole('option', { selected: true })).textContent()).toMatch(/^App 002/);
    // Page Down moves ten at a time; the list scrolls to the active option.
    for (let i = 0; i < 5; i++) await page.keyboard.press('PageDown');
    const last = options.and(page.getByRole('option', { selected: true }));
    expect(await last.textContent()).toMatch(/^App 050/);
    const box = (await page.getByRole('listbox', { name: 'Matches' }).boundingBox())!;
    const seen = (await last.boundingBox())!;
    expect(seen.y).toBeGreaterThanOrEqual(box.y);
    expect(seen.y + seen.height).toBeLessThanOrEqual(box.y + box.height + 1);
    for (let i = 0; i < 5; i++) await page.keyboard.press('PageUp');
    await page.keyboard.press('ArrowDown');
    // Axe and the screenshots with the list open, at 1280 and 375 px.
    await checkPage(cp, 'application-picker');
    expect(await picker.getAttribute('aria-expanded')).toBe('true');

    // Typing narrows: every option holds what was typed, and Enter chooses the active one.
    await page.keyboard.type('App 21');
    await expect.poll(() => options.count()).toBeLessThan(50);
    const narrowed = await options.allTextContents();
    expect(narrowed.length).toBeGreaterThan(1);
    for (const text of narrowed) expect(text).toContain('21');
    await page.keyboard.type('7');
    await page.getByText('1 application matches').waitFor();
    expect(await options.count()).toBe(1);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sessions of App 217' }).waitFor();
    expect(new URL(page.url()).searchParams.get('application')).toBe(ids.get('App 217'));
    expect(await picker.inputValue()).toBe('App 217');
    expect(await picker.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => picker.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    // Escape closes the list and puts the chosen name back.
    await picker.press('Control+a');
    await page.keyboard.type('nothing like it');
    await page.getByText('No application matches').waitFor();
    await page.keyboard.press('Escape');
    expect(await picker.inputValue()).toBe('App 217');
    expect(await picker.getAttribute('aria-expanded')).toBe('false');
    expect(await options.count()).toBe(0);

    // Webhooks' level: an application, then the account again, by keyboard.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const level = page.getByRole('combobox', { name: 'Level', exact: true });
    await level.waitFor();
    expect(await level.inputValue()).toBe('The account');
    await tabTo(page, level);
    await page.keyboard.type('App 300');
    await page.getByText('1 application matches').waitFor();
    await page.keyboard.press('Enter');
    await page.getByText('No webhooks of App 300 yet').waitFor();
    expect(new URL(page.url()).searchParams.get('application')).toBe(ids.get('App 300'));
    await page.keyboard.press('Control+a');
    await page.keyboard.type('account');
    await expect.poll(() => options.allTextContents()).toEqual(['The account']);
    await page.keyboard.press('Enter');
    await page.getByText('No webhooks at the account level yet').waitFor();
    expect(new URL(page.url()).search).toBe('');
    expectClean(cp);
  });
});
