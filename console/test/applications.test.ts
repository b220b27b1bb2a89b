// Applications through the console against the real stack: create, search and page through the
// list, the application's page (URLs, secret, addresses, edit, delete).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { axeViolations, checkPage, consoleHarness, expectClean, turnPage } from './harness.ts';

const h = consoleHarness();

describe('applications', () => {
  it('when a tenant creates an application, claims a number by its city and creates a token, then the page shows them and the API has them', async () => {
    const account = await h.account();
    const area = 200 + Math.floor(Math.random() * 700);
    const city = `Testville ${area}`;
    await h.addNumbers([`+1${area}5550100`, `+1${area}5550101`], { city, state: 'FL' });
    const cp = await h.signIn(account);
    const { page } = cp;
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    await page.getByText('No applications yet').waitFor();
    await checkPage(cp, 'applications-empty');

    await page.getByRole('button', { name: 'New application' }).click();
    await page.getByLabel('Name').fill('Support line');
    await page.getByLabel('Voice URL').fill('https://example.com/voice.json');
    await page.getByLabel('Messaging URL').fill('https://example.com/sms.json');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Support line' }).waitFor();
    const appId = new URL(page.url()).pathname.split('/').pop()!;
    await expect.poll(() => page.getByText('https://example.com/voice.json').count()).toBe(1);

    await page.getByLabel('Exchange or city').selectOption({ label: `${city}, FL, US (+1${area})` });
    await page.getByRole('button', { name: 'Claim number' }).click();
    await page.getByRole('status').filter({ hasText: 'Claimed' }).waitFor();
    await page.getByText(new RegExp(`^\\+1 ${area}-555-010[01] \\(${city}, FL\\)$`)).waitFor();

    await page.getByLabel('Channel').selectOption('voice');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('button', { name: 'Copy token' }).waitFor();

    const addresses = (await h.read(account, `/v1/applications/${appId}/addresses`)) as {
      type: string;
      number?: string;
      token?: string;
    }[];
    expect(addresses.map((a) => a.type)).toEqual(['number', 'token']);
    expect(addresses[0]!.number).toMatch(new RegExp(`^\\+1${area}555010[01]$`));
    // The token the page shows is the one the API has.
    expect(await page.locator('td code').first().textContent()).toBe(addresses[1]!.token);
    await checkPage(cp, 'application');
    expectClean(cp);
  });

  it('when a tenant moves a SIP address to another application and releases a token, then the addresses follow', async () => {
    const account = await h.account();
    const create = (name: string) =>
      h.create(account, '/v1/applications', { name, voiceUrl: 'https://example.com/v.json' });
    const from = await create('From here');
    const to = await create('To there');
    const cp = await h.signIn(account, `/console/applications/${from}`);
    const { page } = cp;
    await page.getByRole('heading', { name: 'From here' }).waitFor();
    await page.getByRole('button', { name: 'Create SIP address' }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);

    await page.getByRole('button', { name: /^Move sip:/ }).click();
    const move = page.getByRole('dialog', { name: /^Move sip:/ });
    // Escape closes the picker's list, not the dialog; the application moved from is not offered.
    await move.getByLabel('Move to').fill('There');
    await move.getByRole('option', { name: 'To there' }).waitFor();
    await page.keyboard.press('Escape');
    expect(await move.getByRole('listbox').isHidden()).toBe(true);
    expect(await move.isVisible()).toBe(true);
    await move.getByLabel('Move to').fill('here');
    await expect.poll(() => move.getByRole('option').allTextContents()).toEqual([expect.stringMatching(/^To there/)]);
    await move.getByRole('option', { name: 'To there' }).click();
    await move.getByRole('button', { name: 'Move' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);

    await page.getByRole('button', { name: /^Release voice token/ }).click();
    await page
      .getByRole('dialog', { name: /^Release voice token/ })
      .getByRole('button', { name: 'Release' })
      .click();
    await page.getByText('No numbers, tokens or SIP addresses yet').waitFor();

    const addressesOf = async (id: string) =>
      ((await h.read(account, `/v1/applications/${id}/addresses`)) as { type: string }[]).map((a) => a.type);
    expect(await addressesOf(from)).toEqual([]);
    expect(await addressesOf(to)).toEqual(['sip']);
    expectClean(cp);
  });

  it('when the name is missing, then the problem is shown beside the Name field and nothing is created', async () => {
    const { account, cp, page } = await h.signedIn();
    await page.getByRole('button', { name: 'New application' }).click();
    await page.getByLabel('Voice URL').fill('https://example.com/voice.json');
    await page.getByRole('button', { name: 'Create' }).click();
    const name = page.getByLabel('Name');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await name.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/required|name/i);
    await checkPage(cp, 'application-new-invalid');
    expect(await h.read(account, '/v1/applications')).toEqual([]);
    expectClean(cp, [/status of 400/]);
  });

  it('when a tenant reveals and rotates the secret, edits the URLs and deletes the application, then each shows and the API agrees', async () => {
    const account = await h.account();
    const appId = await h.create(account, '/v1/applications', {
      name: 'Billing',
      voiceUrl: 'https://example.com/billing.json',
    });
    const cp = await h.signIn(account, `/console/applications/${appId}`);
    const { page } = cp;
    await page.getByRole('heading', { name: 'Billing' }).waitFor();

    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const secret = page.getByLabel('Secret value');
    await expect.poll(() => secret.textContent()).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    const first = (await secret.textContent())!;
    await page.getByRole('button', { name: 'Copy secret' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(first);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Escape cancels, and the secret stays.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await secret.textContent()).toBe(first);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    await expect.poll(() => secret.textContent()).not.toBe(first);
    const { secret: now } = (await h.read(account, `/v1/applications/${appId}/secret`)) as {
      secret: string;
    };
    expect(await secret.textContent()).toBe(now);

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Voice fallback URL').fill('https://backup.example.com/billing.json');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('https://backup.example.com/billing.json').waitFor();
    const app = (await h.read(account, `/v1/applications/${appId}`)) as Record<string, string>;
    expect(app.voiceFallbackUrl).toBe('https://backup.example.com/billing.json');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Billing?' })
      .getByRole('button', { name: 'Delete application' })
      .click();
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    expect((await h.request(account, 'GET', `/v1/applications/${appId}`)).status).toBe(404);
    expectClean(cp);
  });

  it('when an application has 60 addresses, then its page shows 50 at a time', async () => {
    const account = await h.account();
    const appId = await h.create(account, '/v1/applications', {
      name: 'Many addresses',
      voiceUrl: 'https://example.com/v.json',
    });
    const sip = async () =>
      expect((await h.request(account, 'POST', `/v1/applications/${appId}/addresses`, { type: 'sip' })).status).toBe(
        200,
      );
    for (let i = 0; i < 60; i += 20) await Promise.all(Array.from({ length: 20 }, sip));
    const cp = await h.signIn(account, `/console/applications/${appId}`);
    const { page } = cp;
    const rows = page.getByRole('table', { name: 'Addresses of the application' }).locator('tbody tr');
    const pager = page.getByRole('navigation', { name: 'Pages of addresses' });
    await pager.getByText('Page 1 of 2 (60 addresses)').waitFor();
    expect(await rows.count()).toBe(50);
    await turnPage(pager, 'Next', 'Page 2 of 2');
    expect(await rows.count()).toBe(10);
    expectClean(cp);
  });

  it('when the account has 120 applications, then the list shows 50 at a time and the search finds one among all of them', async () => {
    const account = await h.account();
    // Ten at a time, after one that puts the password in the gateway's cache.
    const create = async (i: number) => {
      await h.create(account, '/v1/applications', {
        name: `App ${String(i).padStart(3, '0')}`,
        voiceUrl: `https://example.com/${i}.json`,
      });
    };
    await create(0);
    for (let i = 1; i < 120; i += 10)
      await Promise.all(Array.from({ length: Math.min(10, 120 - i) }, (_, j) => create(i + j)));
    const cp = await h.signIn(account);
    const { page } = cp;
    await page.getByText('120 applications').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(50);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 3').waitFor();
    await page.getByLabel('Search applications').fill('App 117');
    await page.getByText('1 of 120 applications match').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.getByRole('link', { name: 'App 117' }).click();
    await page.getByRole('heading', { name: 'App 117' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    await page.getByLabel('Search applications').fill('');
    await checkPage(cp, 'applications');
    expectClean(cp);
  });

  it('when an application does not exist, then its page says it is not found and links back to the applications', async () => {
    const account = await h.account();
    // An id of the right format that names nothing (one of another format is no page at all).
    const cp = await h.signIn(account, `/console/applications/${randomBytes(12).toString('hex')}`);
    const { page } = cp;
    await page.getByRole('heading', { name: 'Application not found' }).waitFor();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    await page.getByRole('link', { name: 'Back to your applications' }).click();
    await page.getByRole('heading', { name: 'Applications' }).waitFor();
    expectClean(cp, [/404/]);
  });
});
