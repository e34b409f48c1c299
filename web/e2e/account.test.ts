import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestStack } from '../../ops/testing/harness';
import {
  describeInBrowser,
  expectText,
  launchBrowser,
  newPage,
  screenshot,
  seriousAxeViolations,
  startE2EStack,
} from './support';

/**
 * Issue 23's journey: a member on a phone downloads their data from /account, tries to delete
 * the account with a wrong password, then deletes it and lands signed out on the sign-in page;
 * their email no longer signs in. The same page at 1280 px for another member.
 */

const PASSWORD = 'Secret123';
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** A member signed up and signed in through the API in this browser context (the UI sign-up has its own journey). */
async function member(context: BrowserContext, origin: string, firstName: string): Promise<string> {
  const email = `${firstName.toLowerCase()}-${Date.now()}@example.com`;
  const registered = await context.request.post('/api/auth/register', {
    headers: { Origin: origin },
    data: {
      firstName,
      lastName: 'Account',
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      paymentToken: `dev_tok_${Date.now()}${firstName}`,
    },
  });
  expect(registered.status()).toBe(201);
  const deadline = Date.now() + 30_000;
  while ((await (await context.request.get('/api/auth/user')).json()).subscriptionStatus !== 'active') {
    if (Date.now() > deadline) throw new Error(`${firstName}'s membership never activated`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return email;
}

describeInBrowser('your data and your account', () => {
  let stack: TestStack;
  let browser: Browser;
  jest.setTimeout(180_000);

  beforeAll(async () => {
    stack = await startE2EStack();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('on a phone: download my data, a wrong password, then delete the account', async () => {
    const phone = await browser.newContext({
      baseURL: stack.url,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      acceptDownloads: true,
    });
    const email = await member(phone, stack.url, 'Phoebe');
    const page = await newPage(phone);
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Download your data' }).waitFor();
    expect(await page.title()).toBe('Account · Lively');
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await seriousAxeViolations(page, '/account at 390 px')).toEqual([]);
    await screenshot(page, 'account-phone');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('lively-data.json');
    const exported = JSON.parse(await readFile((await download.path())!, 'utf8'));
    expect(exported.profile).toMatchObject({ email, firstName: 'Phoebe' });

    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Password').fill('not-my-password');
    await dialog.getByLabel('I understand this cannot be undone').check();
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expectText(dialog.getByText('Incorrect password').first(), 'Incorrect password');
    expect(await noSidewaysScroll(page)).toBe(true);
    await screenshot(page, 'account-delete-wrong-password-phone');

    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByText('Your account has been deleted').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'account-deleted-phone');
    const signIn = await phone.request.post('/api/auth/login', {
      headers: { Origin: stack.url },
      data: { email, password: PASSWORD },
    });
    expect(signIn.status()).toBe(401);
    await phone.close();
  });

  it('on a desktop: the page at 1280 px', async () => {
    const desktop = await browser.newContext({ baseURL: stack.url, viewport: { width: 1280, height: 900 } });
    await member(desktop, stack.url, 'Dominic');
    const page = await newPage(desktop);
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Delete your account' }).waitFor();
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('dialog').getByLabel('Password').waitFor();
    expect(await seriousAxeViolations(page, '/account delete dialog at 1280 px')).toEqual([]);
    await screenshot(page, 'account-delete-dialog-desktop');
    await desktop.close();
  });
});
