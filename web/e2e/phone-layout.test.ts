import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { hashPassword } from '../../domain/accounts/passwords';
import { membershipDecider } from '../../domain/membership/decider';
import { membershipStream } from '../../domain/membership/events';
import { ensureStaffAccount } from '../../domain/payouts/staff-role';
import { handleCommand } from '../../domain/shared/command-handler';
import type { TestStack } from '../../ops/testing/harness';
import { describeInBrowser, launchBrowser, seriousAxeViolations, startE2EStack } from './support';

/**
 * Issue 19, phones: every route of SPEC §2 in every access state, at 390 px (and 360 px) and at
 * 1280 px, fits the window (no sideways scrolling); the user menu and each of its items too; the
 * messages page shows one pane at a time on phones; dialogs are full-screen on phones; the
 * finance console's tables scroll inside themselves. Screenshots go to .data/screenshots/.
 * Accessibility: axe-core finds no serious or critical violation on any route (once per route
 * and state, at 390 px).
 */

const PASSWORD = 'Secret123';
const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };
const SHOTS = path.resolve(__dirname, '../../.data/screenshots');
const POLICIES = ['/community-guidelines', '/copyright-policy', '/privacy-policy', '/terms-of-service'];
let counter = 0;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined as T);
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

describeInBrowser('phone layout on every route in every access state', () => {
  let stack: TestStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  jest.setTimeout(240_000);

  const post = (request: APIRequestContext, url: string, data: unknown) =>
    request.post(url, { headers: { Origin: stack.url }, data });

  async function newContext(): Promise<{ context: BrowserContext; page: Page }> {
    // Reduced motion: menus and dialogs are pictured as they end, without waiting out their fades,
    // and every route is walked with the theme's still mode on.
    const context = await browser.newContext({
      baseURL: stack.url,
      colorScheme: 'light',
      reducedMotion: 'reduce',
      viewport: PHONE,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return { context, page };
  }

  async function signUp(context: BrowserContext, firstName: string): Promise<string> {
    const res = await post(context.request, '/api/auth/register', {
      firstName,
      lastName: 'Phone',
      email: `${firstName.toLowerCase()}-${Date.now()}-${++counter}@example.com`,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      paymentToken: `dev_tok_phone${counter}x${Date.now()}`,
    });
    expect(res.status()).toBe(201);
    const me = await until(
      async () => (await context.request.get('/api/auth/user')).json(),
      (user) => user?.subscriptionStatus === 'active',
    );
    return me.id;
  }

  /** Client-side navigation after the first load (a full load per route would be slow), then the page settles. */
  async function visit(page: Page, route: string): Promise<void> {
    if (page.url() === 'about:blank') await page.goto(route);
    else
      await page.evaluate((to) => {
        window.history.pushState({}, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, route);
    await settle(page);
  }

  /**
   * Settled: the app has replaced its loading bar and shows no spinner or skeleton, at two looks
   * 150 ms apart (the boot runs in steps, and a page's code or data may start loading right after a
   * quiet moment: a single look once passed a console that was still loading). At most 10 s.
   */
  async function settle(page: Page): Promise<void> {
    const quiet = () =>
      page
        .evaluate(() => !document.querySelector('.app-loading, [role="progressbar"], .MuiSkeleton-root'))
        .catch(() => false); // the page navigated meanwhile: not settled yet
    const deadline = Date.now() + 10_000;
    for (let looks = 0; looks < 2 && Date.now() < deadline;) {
      looks = (await quiet()) ? looks + 1 : 0;
      await page.waitForTimeout(looks === 2 ? 0 : 150);
    }
  }

  async function expectFits(page: Page, what: string): Promise<void> {
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    if (scrollWidth > innerWidth)
      throw new Error(`${what}: page is ${scrollWidth} px wide in a ${innerWidth} px window`);
  }

  /** A page has one top-level heading: screen readers list and jump by headings. */
  async function expectOneTitle(page: Page, what: string): Promise<void> {
    const titles = await page.locator('h1').count();
    if (titles !== 1) throw new Error(`${what}: ${titles} top-level headings (h1), not one`);
  }

  async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(SHOTS, `phone-${name.replace(/[^a-z0-9-]+/gi, '_')}.png`) });
  }

  /** Each route at 390 (then 360) and at 1280: it fits, a screenshot of each; at 390 axe finds nothing serious. */
  async function checkRoutes(page: Page, state: string, routes: Array<string | [string, string]>): Promise<void> {
    const violations: string[] = [];
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      for (const entry of routes) {
        const [route, landsOn] = typeof entry === 'string' ? [entry, undefined] : entry;
        await visit(page, route);
        if (landsOn) await page.waitForURL((url) => url.pathname === landsOn);
        const what = `${state} ${route} at ${viewport.width}`;
        await expectFits(page, what);
        await expectOneTitle(page, what);
        await shot(page, `${state}-${viewport.width}-${route.replace(creatorId, 'id')}`);
        if (viewport === PHONE) {
          violations.push(...(await seriousAxeViolations(page, `${state} ${route}`)));
          await page.setViewportSize(SMALL_PHONE);
          await expectFits(page, `${state} ${route} at 360`);
          await page.setViewportSize(PHONE);
        }
      }
    }
    if (violations.length) throw new Error(`serious accessibility violations:\n${violations.join('\n')}`);
  }

  /** The top bar's controls are reachable (inside the window) and at least 44 px tall. */
  async function checkTopBar(page: Page, state: string): Promise<void> {
    for (const viewport of [SMALL_PHONE, PHONE]) {
      await page.setViewportSize(viewport);
      await visit(page, '/wallet');
      const controls = await page.evaluate(() =>
        [...document.querySelectorAll('header a, header button')]
          // The bell's name carries its unread count ("Notifications, 3 unread").
          .map((element) => ({
            name: (element.getAttribute('aria-label') ?? '').replace(/, .* unread$/, ''),
            box: element.getBoundingClientRect(),
          }))
          .filter(({ box }) => box.width > 0)
          .map(({ name, box }) => ({ name, right: box.right, left: box.left, height: box.height, width: box.width })),
      );
      expect(controls.map((control) => control.name)).toEqual(
        expect.arrayContaining(['Lively home', 'Search', 'Notifications', 'Messages', 'Chat', 'User menu']),
      );
      for (const control of controls) {
        if (control.left < 0 || control.right > viewport.width || control.height < 44 || control.width < 44)
          throw new Error(`${state} at ${viewport.width}: top bar control ${JSON.stringify(control)}`);
      }
    }
    // The phone search opens a search box under the bar.
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const search = page.locator('input[placeholder="Search creators..."]:visible');
    await search.fill('Phone');
    await search.press('Enter');
    await page.waitForURL((url) => url.pathname === '/search');
    await settle(page);
    await expectFits(page, `${state} search at 390`);
    await shot(page, `${state}-390-search`);
  }

  /** Opens the user menu and each item (Logout last, which signs out), at both widths. */
  async function checkUserMenu(page: Page, state: string, expected: string[]): Promise<void> {
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await visit(page, '/wallet');
      await page.getByRole('button', { name: 'User menu' }).click();
      const items = page.getByRole('menuitem');
      await items.first().waitFor();
      expect(await items.allTextContents()).toEqual([...expected, 'Logout']);
      const menu = await page.getByRole('menu').boundingBox();
      expect(menu && menu.x >= 0 && menu.x + menu.width <= viewport.width).toBe(true);
      await shot(page, `${state}-${viewport.width}-user-menu`);
      await page.keyboard.press('Escape');
      for (const label of expected) {
        await page.getByRole('button', { name: 'User menu' }).click();
        await page.getByRole('menuitem', { name: label }).click();
        await page.getByRole('menu').waitFor({ state: 'detached' });
        await settle(page);
        await expectFits(page, `${state} menu ${label} at ${viewport.width}`);
        await shot(page, `${state}-${viewport.width}-menu-${label}`);
      }
    }
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByText('Get Started', { exact: true }).first().waitFor();
    await expectFits(page, `${state} after logout`);
  }

  let creatorId = '';
  let member: { context: BrowserContext; page: Page };
  let creator: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    stack = await startE2EStack();
    // A camera, so /chat shows its preview, not a permission error toast still fading on the next page.
    browser = await launchBrowser({ fakeMedia: true });
    member = await newContext();
    creator = await newContext();
    await signUp(member.context, 'Mona');
    creatorId = await signUp(creator.context, 'Cleo');
    expect((await post(creator.context.request, '/api/creators/register', { bio: 'Small screens' })).status()).toBe(
      201,
    );
    await until(
      async () => (await creator.context.request.get('/api/auth/user')).json(),
      (user) => user?.isCreator === true,
    );
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stack?.close();
  });

  it('logged out: every public route fits at 390, 360 and 1280 px', async () => {
    const { page } = await newContext();
    await checkRoutes(page, 'visitor', [
      '/',
      '/landing',
      '/login',
      '/register',
      '/forgot-password',
      ...POLICIES,
      ['/subscribe', '/login'],
      ['/home', '/login'],
      ['/profile-setup', '/login'],
      '/no-such-page',
    ]);
  });

  it('signed in without a subscription: the subscribe page, wallet and policies fit; the user menu works', async () => {
    const { context, page } = await newContext();
    const userId = await signUp(context, 'Lapsed');
    const later = new Date(Date.now() + 40 * 86_400_000);
    const commandContext = { actorId: userId, now: new Date() };
    await handleCommand(
      stack.store,
      membershipStream(userId),
      membershipDecider,
      { type: 'CancelMembership', userId, now: new Date() },
      commandContext,
    );
    await handleCommand(
      stack.store,
      membershipStream(userId),
      membershipDecider,
      { type: 'ExpireMembership', userId, now: later },
      { ...commandContext, now: later },
    );
    await until(
      async () => (await context.request.get('/api/auth/user')).json(),
      (user) => user?.subscriptionStatus === 'expired',
    );
    await checkRoutes(page, 'lapsed', [
      '/subscribe',
      '/',
      '/home',
      '/no-such-page',
      '/wallet',
      '/billing',
      '/subscriptions',
      '/security',
      '/account',
      ...POLICIES,
      ['/landing', '/subscribe'],
    ]);
    await checkTopBar(page, 'lapsed');
    await checkUserMenu(page, 'lapsed', [
      'Profile',
      'Crypto Wallet',
      'My subscriptions',
      'Billing',
      'Security',
      'Account',
    ]);
  });

  it('a subscribed member: every route fits; messages show one pane at a time on phones', async () => {
    const { page } = member;
    // A conversation to open.
    await until(
      async () =>
        (
          await post(creator.context.request, '/api/messages', {
            receiverId: (await me(member.context)).id,
            content: 'Hi!',
          })
        ).status(),
      (status) => status === 201 || status === 200,
    );
    await checkRoutes(page, 'member', [
      '/',
      '/home',
      '/dashboard',
      `/creator/${creatorId}`,
      '/messages',
      '/payouts',
      '/wallet',
      '/billing',
      '/subscriptions',
      '/profile',
      '/security',
      '/account',
      '/subscribe',
      '/profile-setup',
      '/chat',
      ...POLICIES,
      ['/landing', '/home'],
      '/no-such-page',
    ]);
    await checkTopBar(page, 'member');

    // Messages on a phone: the list, then the thread with a back button, then the list again.
    await page.setViewportSize(PHONE);
    await visit(page, '/messages');
    await page.getByText('Cleo Phone').first().click();
    await page.getByRole('button', { name: 'Back to conversations' }).waitFor();
    await page.getByLabel('Message', { exact: true }).waitFor();
    expect(await page.getByText('Select a conversation').count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Cleo Phone'); // the thread is the page
    const send = await page.getByRole('button', { name: 'Send' }).boundingBox();
    expect(send && send.x + send.width <= PHONE.width && send.height >= 44).toBe(true);
    const box = await page.getByLabel('Message', { exact: true }).boundingBox();
    expect(box && box.width >= 200).toBe(true);
    await expectFits(page, 'member thread at 390');
    await shot(page, 'member-390-messages-thread');
    await page.getByRole('button', { name: 'Back to conversations' }).click();
    await page.getByText('Cleo Phone').first().waitFor();
    expect(await page.getByLabel('Message', { exact: true }).count()).toBe(0);
    // Desktop keeps both panes.
    await page.setViewportSize(DESKTOP);
    await page.getByText('Select a conversation').waitFor();
    await page.getByText('Cleo Phone').first().click();
    await page.getByLabel('Message', { exact: true }).waitFor();
    await page.getByText('Messages', { exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Back to conversations' }).count()).toBe(0);
    await shot(page, 'member-1280-messages-thread');

    // The subscribe dialog on a creator's page is full-screen on a phone.
    await page.setViewportSize(PHONE);
    await visit(page, `/creator/${creatorId}`);
    await page
      .getByRole('button', { name: /Subscribe/ })
      .first()
      .click();
    const dialog = await page.getByRole('dialog').boundingBox();
    expect(dialog).toMatchObject({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
    await shot(page, 'member-390-subscribe-dialog');
    await page.keyboard.press('Escape');

    await checkUserMenu(page, 'member', [
      'Profile',
      'Crypto Wallet',
      'My subscriptions',
      'Billing',
      'Security',
      'Account',
    ]);
  });

  async function me(context: BrowserContext) {
    return (await context.request.get('/api/auth/user')).json();
  }

  it('a creator: every route fits; the new-post dialog is full-screen on phones', async () => {
    const { page } = creator;
    await checkRoutes(page, 'creator', [
      '/',
      '/dashboard',
      `/creator/${creatorId}`,
      '/messages',
      '/payouts',
      '/vault',
      '/dashboard/subscribers',
      '/dashboard/analytics',
      '/dashboard/mass-messages',
      '/wallet',
      '/billing',
      '/account',
      '/subscribe',
      '/profile-setup',
      '/chat',
      '/no-such-page',
    ]);
    // The creator's name sits below the cover at every width (the cover would be painted over it).
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await visit(page, `/creator/${creatorId}`);
      const cover = await page.getByTestId('creator-cover').boundingBox();
      const name = await page.getByRole('heading', { name: 'Cleo Phone' }).boundingBox();
      expect({ width: viewport.width, nameBelowCover: !!cover && !!name && name.y >= cover.y + cover.height }).toEqual({
        width: viewport.width,
        nameBelowCover: true,
      });
    }
    await page.setViewportSize(PHONE);
    await visit(page, '/dashboard');
    await page.getByRole('button', { name: 'Create New Post' }).click();
    const dialog = await page.getByRole('dialog').boundingBox();
    expect(dialog).toMatchObject({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
    await shot(page, 'creator-390-new-post-dialog');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Create New Post' }).click();
    const desktopDialog = await page.getByRole('dialog').boundingBox();
    expect(desktopDialog && desktopDialog.width < DESKTOP.width - 100).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    // A creator's thread: the price and Send go on a second row, inside the window.
    await page.setViewportSize(PHONE);
    await visit(page, '/messages');
    await page.getByText('Mona Phone').first().click();
    await page.getByLabel('Message', { exact: true }).waitFor();
    await expectFits(page, 'creator thread at 390');
    const send = await page.getByRole('button', { name: 'Send' }).boundingBox();
    expect(send && send.x + send.width <= PHONE.width).toBe(true);
    await shot(page, 'creator-390-messages-thread');
    await checkUserMenu(page, 'creator', [
      'Profile',
      'Crypto Wallet',
      'My subscriptions',
      'Billing',
      'Security',
      'Account',
      'Dashboard',
      'Media Vault',
      'Payouts',
    ]);
  });

  it('finance staff: the console fits, its tables scroll inside themselves', async () => {
    const { context, page } = await newContext();
    const email = `finance-phone-${Date.now()}@example.com`;
    await ensureStaffAccount(
      stack.store,
      { email, passwordHash: () => hashPassword(PASSWORD) },
      { actorId: null, now: new Date() },
    );
    await until(
      () => post(context.request, '/api/auth/login', { email, password: PASSWORD }).then((res) => res.status()),
      (status) => status === 200,
    );
    await until(
      () => me(context),
      (user) => user?.role === 'admin',
    );
    await checkRoutes(page, 'staff', [
      '/admin/payouts',
      '/admin/conversions',
      '/admin/payments',
      '/admin/ledger',
      '/admin/reports',
      '/system',
      '/wallet',
      '/profile',
    ]);
    await page.setViewportSize(PHONE);
    await visit(page, '/admin/ledger');
    await page.getByRole('grid').waitFor();
    const grid = await page.getByTestId('admin-table').boundingBox();
    expect(grid && grid.x >= 0 && grid.x + grid.width <= PHONE.width).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'phone-staff-390-ledger-full.png'), fullPage: true });
    await checkUserMenu(page, 'staff', [
      'Profile',
      'Crypto Wallet',
      'My subscriptions',
      'Billing',
      'Security',
      'Account',
      'Admin',
      'System',
    ]);
  });
});
