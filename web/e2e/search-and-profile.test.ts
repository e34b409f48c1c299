import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestStack } from '../../ops/testing/harness';
import { describeInBrowser, launchBrowser, newPage, screenshot, startE2EStack } from './support';

/**
 * Issue 19: the top bar's search finds creators as you type (desktop and phone), and a member's
 * Profile opens /profile instead of a creator page that does not exist.
 */
const PASSWORD = 'Secret123';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

describeInBrowser('search as you type and the member profile', () => {
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let creatorId: string;

  jest.setTimeout(180_000);

  async function signUp(on: BrowserContext, firstName: string, lastName: string): Promise<string> {
    const res = await on.request.post('/api/auth/register', {
      headers: { Origin: stack.url },
      data: {
        firstName,
        lastName,
        email: `${firstName.toLowerCase()}-${Date.now()}@example.com`,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        paymentToken: `dev_tok_${firstName}${Date.now()}`,
      },
    });
    expect(res.status()).toBe(201);
    for (let i = 0; i < 400; i++) {
      const me = await on.request.get('/api/auth/user');
      if (me.status() === 200 && (await me.json()).subscriptionStatus === 'active') return (await me.json()).id;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('sign-up did not activate');
  }

  const sideways = () =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  beforeAll(async () => {
    stack = await startE2EStack();
    browser = await launchBrowser();
    const creatorContext = await browser.newContext({ baseURL: stack.url });
    creatorId = await signUp(creatorContext, 'Zinnia', 'Quill');
    const registered = await creatorContext.request.post('/api/creators/register', {
      headers: { Origin: stack.url },
      data: { bio: 'Letterpress prints' },
    });
    expect(registered.status()).toBe(201);
    await creatorContext.close();
    context = await browser.newContext({ baseURL: stack.url, colorScheme: 'light', viewport: DESKTOP });
    page = await newPage(context);
    await signUp(context, 'Mara', 'Member');
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.close();
  });

  it('on a desktop, suggestions appear while typing; a choice opens the creator, Enter the search page', async () => {
    await page.goto('/');
    const box = page.getByRole('combobox', { name: 'Search creators' });
    await box.fill('zin');
    const option = page.getByRole('option', { name: /Zinnia Quill/ });
    await option.waitFor();
    expect(await option.textContent()).toContain('0 subscribers · 0 posts');
    await page.getByRole('option', { name: 'See all results for "zin"' }).waitFor();
    await screenshot(page, 'search-suggestions-1280');
    await box.press('ArrowDown');
    await box.press('Enter');
    await page.waitForURL(`**/creator/${creatorId}`);
    await page.getByRole('heading', { name: 'Zinnia Quill' }).waitFor();

    await box.fill('quill');
    await box.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === 'quill');
    await page.getByText('Zinnia Quill').first().waitFor();
  });

  it("a member's Profile opens /profile with member since and a way to become a creator", async () => {
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { level: 1, name: 'Mara Member' }).waitFor();
    expect(await page.getByTestId('member-since').textContent()).toMatch(/^Member since \d{1,2} [A-Z][a-z]{2} \d{4}$/);
    await screenshot(page, 'profile-1280');
    await page.getByRole('link', { name: 'Become a Creator' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: 'Start Your Creator Journey' }).waitFor();
  });

  it('on a phone, the search opens under the bar, fits, and its suggestions open the creator', async () => {
    await page.setViewportSize(PHONE);
    await page.goto('/profile');
    await page.getByRole('heading', { level: 1, name: 'Mara Member' }).waitFor();
    expect(await sideways()).toBe(0);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const box = page.locator('input[placeholder="Search creators..."]:visible');
    await box.fill('qui');
    await page.getByRole('option', { name: /Zinnia Quill/ }).waitFor();
    expect(await sideways()).toBe(0);
    await screenshot(page, 'search-suggestions-390');
    await page.getByRole('option', { name: /Zinnia Quill/ }).click();
    await page.waitForURL(`**/creator/${creatorId}`);
    expect(await sideways()).toBe(0);
  });
});
