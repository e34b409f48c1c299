import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { RENDERED_QUERIES_ID, TIME_ZONE_COOKIE } from '../../domain/contracts/member-pages';
import { THEME_SCRIPT } from '../../domain/contracts/theme-script';
import { registerMember, unsubscribedUser, type TestMember } from '../../ops/testing/chat-client';
import { eventually } from '../../ops/testing/eventually';
import { verifyIdentity } from '../../ops/testing/identity-verification';
import type { TestStack } from '../../ops/testing/harness';
import { describeInBrowser, launchBrowser, newPage, screenshot, startE2EStack } from './support';

/**
 * Issue 19: a member's home and a creator's page come rendered by the server with the data they
 * show (web/src/app/member-page.tsx, api/http/member-pages.ts), dates in the member's time zone;
 * the browser adopts them without asking for that data again or rendering anything differently.
 */
const POST_TITLE = 'Sunrise over the harbour';

/** A zone whose calendar day differs from UTC's at this hour, so a date written in the wrong zone shows. */
const farZone = () => (new Date().getUTCHours() >= 12 ? 'Etc/GMT-14' : 'Etc/GMT+12');

const dayIn = (iso: string, timeZone: string) => {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric' })
    .formatToParts(new Date(iso))
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});
  return `${parts.day} ${parts.month} ${parts.year}`;
};

describeInBrowser('member pages rendered on the server', () => {
  let stack: TestStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let creator: TestMember;
  let postedAt: string;
  const zone = farZone();
  const errors: string[] = [];
  const apiCalls: string[] = [];
  const workers: string[] = [];

  jest.setTimeout(180_000);

  beforeAll(async () => {
    // A loaded CI machine may render slower than a member's page is given (it then goes to the browser).
    stack = await startE2EStack({ memberPageBudgetMs: 30_000 });
    creator = await registerMember(stack, 'Cleo');
    await creator.agent.post('/api/creators/register').send({ bio: 'Cleo photographs harbours' }).expect(201);
    await verifyIdentity(stack, creator.agent, creator.userId);
    const post = await creator.agent
      .post('/api/posts')
      .send({ title: POST_TITLE, content: 'Gulls and ferries', isPublic: true })
      .expect(201);
    postedAt = post.body.createdAt;
    const member = await registerMember(stack, 'Milo');
    await member.agent
      .post('/api/subscriptions')
      .send({ creatorId: creator.userId, tierId: 'default-basic' })
      .expect(201);
    // Something for the member's bell to count.
    await creator.agent
      .post('/api/messages')
      .send({ receiverId: member.userId, content: 'Thanks for subscribing' })
      .expect(201);
    await eventually(
      () => member.agent.get('/api/notifications'),
      (res) => res.body.unreadCount === 1,
    );
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: stack.url, timezoneId: zone, viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name: 'lively.sid', value: member.token, url: stack.url, httpOnly: true }]);
    page = await newPage(context);
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('request', (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) apiCalls.push(url.pathname);
    });
    page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.close();
  });

  /** The page's HTML as the server sent it, then the page once React has adopted every control. */
  async function open(path: string) {
    errors.length = 0;
    apiCalls.length = 0;
    const response = await page.goto(path);
    const html = (await response?.text()) ?? '';
    await page.waitForFunction(() => !document.querySelector('[data-until-hydrated]'));
    return { html, response: response! };
  }

  it('renders home in the browser on a first visit, which tells the server the time zone', async () => {
    const { html } = await open('/home');
    expect(html).not.toContain(POST_TITLE);
    await page.getByText(POST_TITLE).waitFor();
    // Told once the page has settled (web/src/main.tsx): the cookie is for the next visit.
    await page.waitForFunction((name) => document.cookie.includes(`${name}=`), TIME_ZONE_COOKIE);
    const cookies = await context.cookies(stack.url);
    expect(cookies.find((cookie) => cookie.name === TIME_ZONE_COOKIE)?.value).toBe(encodeURIComponent(zone));
    // Named by a worker (Intl's first use is a long task on a phone), which the CSP lets start.
    expect(workers).toEqual(['/time-zone.js']);
    expect(errors).toEqual([]);
  });

  it('sends home rendered with the feed, in the member zone, and the browser adopts it as it is', async () => {
    const { html, response } = await open('/home');
    expect(response.headers()['cache-control']).toBe('private, no-store');
    expect(html).toContain(`id="${RENDERED_QUERIES_ID}"`);
    expect(html).toContain(POST_TITLE);
    expect(html).toContain('Featured Creators');
    // The date as the member's clock shows it, not the server's (they differ at this hour).
    expect(dayIn(postedAt, zone)).not.toBe(dayIn(postedAt, 'UTC'));
    expect(html).toContain(dayIn(postedAt, zone));
    // The theme's script is inline (no round trip before the first paint), allowed by its hash only.
    expect(html).toContain(`<script>${THEME_SCRIPT}</script>`);
    const hash = createHash('sha256').update(THEME_SCRIPT).digest('base64');
    expect(response.headers()['content-security-policy']).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(await page.evaluate(() => document.documentElement.className)).toMatch(/\b(light|dark)\b/);
    await page.getByText(POST_TITLE).waitFor();
    await page.waitForTimeout(500); // effects after adoption
    expect(errors).toEqual([]);
    // The bell comes counting, so its badge is drawn with the page and not added after adoption.
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
    expect(html).toContain('aria-label="Notifications, 1 unread"');
    // What the page came with, the top bar's bell included, is not asked for again.
    expect(apiCalls.filter((call) => /^\/api\/(auth\/user|posts\/feed|creators|notifications)$/.test(call))).toEqual(
      [],
    );
    await screenshot(page, 'member-home-rendered-390');
  });

  it('sends a creator page rendered, and its controls work once adopted', async () => {
    const { html } = await open(`/creator/${creator.userId}`);
    expect(html).toContain(POST_TITLE);
    expect(html).toContain('Cleo photographs harbours');
    expect(errors).toEqual([]);
    expect(apiCalls.filter((call) => call.startsWith(`/api/creators/${creator.userId}`))).toEqual([]);
    await screenshot(page, 'member-creator-rendered-390');
    await page.getByRole('link', { name: 'Message', exact: true }).click();
    await page.waitForURL(`**/messages?user=${creator.userId}`);
  });

  it('reloads once when a chunk of the app is gone (a new build while the tab was open), then adopts the page', async () => {
    let loads = 0;
    const countLoad = (request: Request) => request.isNavigationRequest() && loads++;
    page.on('request', countLoad);
    // The first load finds the app's main chunk gone, as a tab opened before a deploy would.
    await page.route(/\/assets\/start-in-browser-[\w-]+\.js$/, (route) =>
      loads === 1 ? route.fulfill({ status: 404, body: 'gone' }) : route.continue(),
    );
    await page.goto('/home');
    for (let waited = 0; loads < 2 && waited < 10_000; waited += 100) await page.waitForTimeout(100);
    expect(loads).toBe(2);
    await page.waitForFunction(() => !document.querySelector('[data-until-hydrated]'));
    expect(await page.evaluate(() => sessionStorage.getItem('chunkReloadAt'))).toMatch(/^\d+$/);
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await page.keyboard.press('Escape');
    page.off('request', countLoad);
    await page.unroute(/\/assets\/start-in-browser-[\w-]+\.js$/);
  });

  it('stills fades and ripples for a member whose system asks for less motion', async () => {
    const buttonTransition = async (reducedMotion: 'reduce' | 'no-preference') => {
      const still = await browser.newContext({ baseURL: stack.url, reducedMotion });
      try {
        const login = await newPage(still);
        await login.goto('/login');
        return await login
          .getByRole('button', { name: 'Sign In' })
          .evaluate((button) => getComputedStyle(button).transitionDuration);
      } finally {
        await still.close();
      }
    };
    expect(await buttonTransition('no-preference')).toMatch(/^0\.25s/);
    expect(new Set((await buttonTransition('reduce')).split(', '))).toEqual(new Set(['0.001s']));
  });

  it('leaves the page to the browser for someone without site access, and for visitors', async () => {
    const lapsed = await unsubscribedUser(stack);
    const cookie = `lively.sid=${lapsed.token}; ${TIME_ZONE_COOKIE}=UTC`;
    const home = await fetch(`${stack.url}/home`, { headers: { cookie } });
    expect(await home.text()).not.toContain(RENDERED_QUERIES_ID);
    const visitor = await fetch(`${stack.url}/creator/${creator.userId}`, {
      headers: { cookie: `${TIME_ZONE_COOKIE}=UTC` },
    });
    expect(await visitor.text()).not.toContain(RENDERED_QUERIES_ID);
  });
});
