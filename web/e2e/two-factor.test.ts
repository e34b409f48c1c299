import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestStack } from '../../ops/testing/harness';
import { totpCode } from '../../ops/testing/two-factor';
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
 * Issue 20's journey: a creator without two-factor is sent to turn it on before adding a bank
 * account (the Security page: QR code, manual key, a code, the recovery codes once), adds the
 * account, and then signs in with a code; on a phone, with a recovery code.
 */

const PASSWORD = 'Secret123';
const STEP_MS = 30_000;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined as T);
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describeInBrowser('two-factor authentication', () => {
  let stack: TestStack;
  let browser: Browser;
  let desktop: BrowserContext;
  let page: Page;
  const email = `secure-${Date.now()}@example.com`;
  let secret = '';
  let recoveryCodes: string[] = [];

  jest.setTimeout(180_000);

  beforeAll(async () => {
    stack = await startE2EStack();
    browser = await launchBrowser();
    desktop = await browser.newContext({
      baseURL: stack.url,
      colorScheme: 'light',
      viewport: { width: 1280, height: 900 },
    });
    page = await newPage(desktop);
  });

  afterAll(async () => {
    await desktop?.close();
    await browser?.close();
    await stack?.close();
  });

  async function addBankAccount() {
    await page.getByRole('button', { name: 'Add Payment Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Payment Account' });
    await dialog.getByLabel('Account Type').click();
    await page.getByRole('option', { name: 'Bank Account' }).click();
    await dialog.getByLabel('Account Holder Name').fill('Sam Secure');
    await dialog.getByLabel('Last 4 Digits').fill('4321');
    await dialog.getByRole('button', { name: 'Add Account' }).click();
    return dialog;
  }

  it('A creator without 2FA is sent to enable it before adding a bank account, and then signs in with a code', async () => {
    const post = (url: string, data: unknown) => desktop.request.post(url, { headers: { Origin: stack.url }, data });
    const registered = await post('/api/auth/register', {
      firstName: 'Sam',
      lastName: 'Secure',
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      paymentToken: `dev_tok_secure${Date.now()}`,
    });
    expect(registered.status()).toBe(201);
    await until(
      async () => (await desktop.request.get('/api/auth/user')).json(),
      (user) => user?.subscriptionStatus === 'active',
    );
    expect((await post('/api/creators/register', { bio: 'Safe and sound' })).status()).toBe(201);
    await until(
      async () => (await desktop.request.get('/api/auth/user')).json(),
      (user) => user?.isCreator === true,
    );

    // Refused, with the way to fix it.
    await page.goto('/payouts');
    await page.getByRole('heading', { name: 'Payouts', exact: true }).waitFor();
    const dialog = await addBankAccount();
    const required = dialog.getByTestId('two-factor-required');
    await required.getByText('Turn on two-factor authentication to add a payment account.').waitFor();
    await screenshot(page, 'two-factor-payouts-refused');
    await required.getByRole('link', { name: 'Go to Security' }).click();

    // The Security page: QR code, manual key, a code from the app, then the recovery codes once.
    await page.waitForURL('**/security');
    await page.getByRole('heading', { name: 'Security', exact: true }).waitFor();
    await expectText(page.getByTestId('two-factor-state'), 'Off');
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await page.getByAltText('QR code for your authenticator app').waitFor();
    secret = ((await page.getByTestId('manual-key').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await screenshot(page, 'two-factor-setup');
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await page.getByText('Invalid authentication code').waitFor();
    // A code of the step before (still accepted): the current one stays free for signing in.
    await page.getByLabel('Authentication code').fill(await totpCode(secret, new Date(Date.now() - STEP_MS)));
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    const list = page.getByTestId('recovery-codes');
    await list.waitFor();
    recoveryCodes = (await list.locator('li').allTextContents()).map((code) => code.trim());
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole('button', { name: 'Download' }).waitFor();
    await screenshot(page, 'two-factor-recovery-codes');
    expect(await seriousAxeViolations(page, '/security recovery codes')).toEqual([]);
    await page.getByRole('button', { name: 'I saved them' }).click();
    await expectText(page.getByTestId('two-factor-state'), 'On');
    await expectText(page.getByTestId('recovery-codes-left'), 'Recovery codes left: 10 of 10');

    // Now the bank account goes in.
    await page.goto('/payouts');
    await addBankAccount();
    await page.getByText('Payment Account Added').waitFor();
    await page.getByTestId('payment-account').getByText('Bank Account ••••4321 (Sam Secure)').waitFor();

    // Signing in again asks for the code after the password.
    await page.goto('/api/auth/logout');
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const code = page.getByLabel('Authentication code');
    await code.waitFor();
    await code.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Invalid authentication code').waitFor();
    await code.fill(await totpCode(secret));
    await screenshot(page, 'two-factor-login-code');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Welcome back!').waitFor();
    expect((await (await desktop.request.get('/api/auth/user')).json()).email).toBe(email);
  });

  it('on a phone, signs in with a recovery code instead, and the Security page fits', async () => {
    const phone = await browser.newContext({
      baseURL: stack.url,
      colorScheme: 'dark',
      viewport: { width: 390, height: 844 },
    });
    const mobile = await newPage(phone);
    try {
      await mobile.goto('/login');
      await mobile.getByLabel('Email').fill(email);
      await mobile.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await mobile.getByRole('button', { name: 'Sign In' }).click();
      await mobile.getByLabel('Authentication code').waitFor();
      await mobile.getByRole('button', { name: 'Use a recovery code' }).click();
      await mobile.getByLabel('Recovery code').fill(recoveryCodes[0]);
      expect(await noSidewaysScroll(mobile)).toBe(true);
      await screenshot(mobile, 'two-factor-login-recovery-390');
      await mobile.getByRole('button', { name: 'Verify' }).click();
      await mobile.getByText('Welcome back!').waitFor();

      await mobile.goto('/security');
      await expectText(mobile.getByTestId('recovery-codes-left'), 'Recovery codes left: 9 of 10');
      expect(await noSidewaysScroll(mobile)).toBe(true);
      await screenshot(mobile, 'two-factor-security-390');
      // Taps are at least 44 px tall.
      const button = mobile.getByRole('button', { name: 'Turn off two-factor authentication' });
      expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    } finally {
      await phone.close();
    }
  });
});
