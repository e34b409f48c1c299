import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { hashPassword } from '../../domain/accounts/passwords';
import { ensureStaffAccount } from '../../domain/payouts/staff-role';
import type { TestStack } from '../../ops/testing/harness';
import { verifyCreatorIdentity } from './identity';
import { describeInBrowser, launchBrowser, newPage, screenshot, seriousAxeViolations, startE2EStack } from './support';

/**
 * Issue 21's journey, in Chromium on the built client: a member subscribes to a tier, tips a
 * post, cancels and sees "until <date>", resubscribes, chooses to renew from the USD balance
 * and back, then claims the money-back guarantee and loses access; a creator schedules a post that appears at its time (the stack's clock moved
 * past it, the publishing tick run), edits a post from its menu, sends a pay-per-view mass
 * message that the subscriber unlocks, and sees the tip and the unlock in analytics; finance
 * staff refund part of a site-plan charge and the member's billing history shows it. Every step
 * is done on the page; each page is checked with axe.
 */
const PASSWORD = 'Secret123';
const MINUTE = 60_000;

describeInBrowser('creator economy journey', () => {
  let stack: TestStack;
  let browser: Browser;
  let creatorContext: BrowserContext;
  let memberContext: BrowserContext;
  let creator: Page;
  let member: Page;
  let creatorId: string;
  let memberId: string;
  let memberEmail: string;
  /** The server's clock runs this far ahead of the real one (scheduled posts come out). */
  let clockOffsetMs = 0;
  const axeFindings: string[] = [];

  jest.setTimeout(300_000);

  const post = (request: APIRequestContext, url: string, data: unknown) =>
    request.post(url, { headers: { Origin: stack.url }, data });

  async function signUp(context: BrowserContext, firstName: string, lastName: string): Promise<string> {
    const email = `${firstName.toLowerCase()}-${Date.now()}@example.com`;
    if (firstName === 'Milo') memberEmail = email;
    const res = await post(context.request, '/api/auth/register', {
      firstName,
      lastName,
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      paymentToken: `dev_tok_${firstName}${Date.now()}`,
    });
    expect(res.status()).toBe(201);
    for (let i = 0; i < 400; i++) {
      const me = await context.request.get('/api/auth/user');
      if (me.status() === 200 && (await me.json()).subscriptionStatus === 'active') return (await me.json()).id;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the sign-up of ${firstName} did not activate`);
  }

  /** axe on the page as it stands; findings are gathered and checked at the end, with where they were. */
  async function axe(page: Page, where: string) {
    axeFindings.push(...(await seriousAxeViolations(page, where)));
  }

  beforeAll(async () => {
    stack = await startE2EStack({ clock: () => new Date(Date.now() + clockOffsetMs) });
    browser = await launchBrowser();
    const options = { baseURL: stack.url, colorScheme: 'light' as const, viewport: { width: 1280, height: 900 } };
    creatorContext = await browser.newContext(options);
    memberContext = await browser.newContext(options);
    creator = await newPage(creatorContext);
    member = await newPage(memberContext);
    creatorId = await signUp(creatorContext, 'Carla', 'Creator');
    memberId = await signUp(memberContext, 'Milo', 'Member');
    expect((await post(creatorContext.request, '/api/creators/register', { bio: 'Studio diaries' })).status()).toBe(
      201,
    );
    await verifyCreatorIdentity(stack, creatorContext.request, creatorId);
    const locked = await post(creatorContext.request, '/api/posts', {
      title: 'Behind the scenes',
      content: 'Only my subscribers read this.',
    });
    expect(locked.status()).toBe(201);
  });

  afterAll(async () => {
    await creatorContext?.close();
    await memberContext?.close();
    await browser?.close();
    await stack?.close();
  });

  it('a member subscribes to a tier and reads the locked post', async () => {
    await member.goto(`/creator/${creatorId}`);
    await member.getByTestId('locked-overlay').waitFor();
    await member.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await member.getByRole('dialog').getByRole('button', { name: 'Subscribe to Premium' }).click();
    await member.getByText('Subscription successful!').waitFor();
    await member.getByText('Only my subscribers read this.').waitFor();
    expect(await member.getByTestId('locked-overlay').count()).toBe(0);
  });

  it('the member cancels from My subscriptions and keeps access "until <date>", then resubscribes', async () => {
    await member.getByRole('button', { name: 'User menu' }).click();
    await member.getByRole('menuitem', { name: 'My subscriptions' }).click();
    await member.getByRole('heading', { name: 'My subscriptions' }).waitFor();
    const card = member.getByTestId('subscription-card');
    await card.getByText(/^Renews on \d+ \w+ \d{4} at \$19\.99$/).waitFor();
    await axe(member, 'my subscriptions');
    await card.getByRole('button', { name: 'Cancel subscription' }).click();
    const confirm = member.getByRole('dialog', { name: 'Cancel your subscription to Carla Creator?' });
    await confirm.getByText(/^You keep access until \d+ \w+ \d{4}/).waitFor();
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await member.getByText('Subscription canceled').waitFor();
    await card.getByText(/^Canceled: access until \d+ \w+ \d{4}$/).waitFor();
    await screenshot(member, 'economy-canceled-until');
    await member.goto(`/creator/${creatorId}`);
    await member.getByText('Only my subscribers read this.').waitFor(); // paid for until then
    await member.goto('/subscriptions');
    await card.getByRole('button', { name: 'Resubscribe' }).click();
    await member.getByText('Subscription resumed').waitFor();
    await card.getByText(/^Renews on \d+ \w+ \d{4} at \$19\.99$/).waitFor();
  });

  it('the member chooses to renew from their USD balance, then back to the card', async () => {
    // Funds first: 25 USDC converted (less the 3% fee), confirmed by the sandbox gateway.
    const converted = await post(memberContext.request, '/api/crypto/convert', {
      cryptoAmount: '25',
      cryptoType: 'USDC',
      walletAddress: '0xEconomyJourney1',
    });
    expect(converted.status()).toBe(202);
    let balance = { totalUsd: '0.00' };
    for (let i = 0; i < 100 && balance.totalUsd === '0.00'; i++) {
      await stack.tickers.runOnce();
      balance = await (await memberContext.request.get('/api/crypto/balance')).json();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // About $24.25: the sandbox's stablecoin rate moves around the peg.
    expect(Number(balance.totalUsd)).toBeGreaterThan(24);
    const balanceOption = `USD balance ($${balance.totalUsd})`;
    await member.goto('/subscriptions');
    const card = member.getByTestId('subscription-card');
    const renewWith = card.getByRole('radiogroup', { name: 'Renew with' });
    await renewWith.getByRole('radio', { name: balanceOption }).check();
    await member.getByText('Renewals will be paid from your USD balance').waitFor();
    await card.getByText(/^Renews on \d+ \w+ \d{4} at \$19\.99 from your USD balance$/).waitFor();
    await axe(member, 'my subscriptions, renewing from the balance');
    await screenshot(member, 'economy-renew-from-balance');
    await renewWith.getByRole('radio', { name: 'Card on file' }).check();
    await member.getByText('Renewals will be charged to your card on file').waitFor();
    await card.getByText(/^Renews on \d+ \w+ \d{4} at \$19\.99$/).waitFor();
    // On a phone the choice stacks and fits (this page is visited there again once refunded).
    await member.setViewportSize({ width: 390, height: 844 });
    await renewWith.getByRole('radio', { name: balanceOption }).waitFor();
    const { scrollWidth, innerWidth } = await member.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBe(innerWidth);
    await screenshot(member, 'economy-phone-renew-with');
    await member.setViewportSize({ width: 1280, height: 900 });
  });

  it('the member tips the post $5 on their card', async () => {
    await member.goto(`/creator/${creatorId}`);
    const card = member.getByTestId('post-card').filter({ hasText: 'Behind the scenes' });
    await card.getByRole('button', { name: 'Tip', exact: true }).click();
    const dialog = member.getByRole('dialog', { name: 'Tip Carla Creator' });
    await dialog.getByRole('button', { name: '$5', exact: true }).click();
    await dialog.getByLabel('Message (optional)').fill('Loved the behind the scenes');
    await axe(member, 'tip dialog');
    await dialog.getByRole('button', { name: 'Tip $5.00' }).click();
    await member.getByText('You tipped Carla Creator $5.00.').waitFor();
  });

  it('the creator schedules a post: only they see it until its time, then it is in the member’s feed', async () => {
    await creator.goto('/dashboard');
    await creator.getByRole('button', { name: 'Create New Post' }).click();
    const dialog = creator.getByRole('dialog', { name: 'New Post' });
    await dialog.getByLabel('Title').fill('Premiere night');
    await dialog.getByLabel('Content').fill('The new series starts now.');
    await dialog.getByLabel('Publish later').check();
    // Ten minutes ahead, as the browser's datetime-local field takes it (local time).
    const at = new Date(Date.now() + 10 * MINUTE);
    const local = new Date(at.getTime() - at.getTimezoneOffset() * MINUTE).toISOString().slice(0, 16);
    await dialog.getByLabel('Publish at').fill(local);
    await dialog.getByRole('button', { name: 'Schedule Post' }).click();
    await creator.getByText('Post scheduled').waitFor();
    const scheduled = creator.getByTestId('scheduled-post');
    await scheduled.getByText('Premiere night').waitFor();
    await scheduled.getByText(/^Publishes \d+ \w+ \d{4}, \d\d:\d\d$/).waitFor();
    await axe(creator, 'dashboard with a scheduled post');
    await screenshot(creator, 'economy-scheduled-post');

    // Before its time the member sees nothing of it, in the feed or on the creator's page.
    await member.goto('/');
    await member.getByText('Behind the scenes').waitFor({ timeout: 30_000 }); // the feed, on a loaded machine
    expect(await member.getByText('Premiere night').count()).toBe(0);
    await member.goto(`/creator/${creatorId}`);
    await member.getByText('Behind the scenes').waitFor();
    expect(await member.getByText('Premiere night').count()).toBe(0);

    // Its time comes: the publishing tick puts it out, once.
    clockOffsetMs = 11 * MINUTE;
    await stack.tickers.runOnce();
    expect(await stack.settle()).toBe(true);
    await member.goto('/');
    await member.getByText('The new series starts now.').waitFor();
    await creator.goto('/dashboard');
    await creator.getByText('No scheduled posts.', { exact: false }).waitFor();
  });

  it('the member deletes their comment; the creator edits the post from its menu', async () => {
    await member.goto(`/creator/${creatorId}`);
    const card = member.getByTestId('post-card').filter({ hasText: 'Behind the scenes' });
    await card.getByRole('button', { name: /comments?$/ }).click();
    await card.getByPlaceholder('Write a comment...').fill('Said too soon');
    await card.getByRole('button', { name: 'Comment', exact: true }).click();
    await card.getByText('Said too soon').waitFor();
    await card.getByRole('button', { name: 'Delete comment by Milo Member' }).click();
    await member.getByText('Comment deleted').waitFor();
    await card.getByText('No comments yet').waitFor();

    await creator.goto(`/creator/${creatorId}`);
    await creator.getByRole('button', { name: 'Post options for Behind the scenes' }).click();
    await creator.getByRole('menuitem', { name: 'Edit post' }).click();
    const dialog = creator.getByRole('dialog', { name: 'Edit Post' });
    await dialog.getByLabel('Content').fill('Only my subscribers read this, now with notes.');
    await axe(creator, 'edit post dialog');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await creator.getByText('Post updated').waitFor();
    await member.reload();
    await member.getByText('Only my subscribers read this, now with notes.').waitFor();
  });

  it('the creator sends a pay-per-view mass message to active subscribers; the subscriber unlocks it', async () => {
    await creator.goto('/dashboard');
    await creator.getByRole('link', { name: 'Mass Messages' }).click();
    const form = creator.getByRole('form', { name: 'New mass message' });
    await form.getByLabel('Message').fill('Ten unseen frames, for subscribers');
    await form.getByLabel('Price (optional, pay-per-view)').fill('3.50');
    await form.getByRole('button', { name: 'Send' }).click();
    await creator.getByText('On its way to 1 subscriber.').waitFor();
    const sent = creator.getByTestId('mass-message').filter({ hasText: 'Ten unseen frames' });
    await sent.getByText('$3.50 pay-per-view').waitFor();
    await sent
      .getByTestId('mass-stats')
      .getByText(/^Sent 1$/)
      .waitFor();
    await axe(creator, 'mass messages');
    // The member pays the unlock from a USD balance, which a crypto conversion fills.
    const convert = await post(memberContext.request, '/api/crypto/convert', {
      cryptoAmount: '20',
      cryptoType: 'USDC',
      walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
    });
    expect(convert.status()).toBeLessThan(300);
    for (let i = 0; i < 200; i++) {
      const balance = await (await memberContext.request.get('/api/crypto/balance')).json();
      if (Number(balance.totalUsd) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await stack.settle()).toBe(true); // the mass message delivered to every recipient
    await member.goto('/messages');
    await member.getByText('Paid message', { exact: true }).waitFor();
    await member.getByText('Carla Creator').first().click();
    const unlock = member.getByRole('button', { name: 'Unlock for $3.50' });
    await unlock.waitFor();
    expect(await member.getByText('Ten unseen frames').count()).toBe(0);
    await unlock.click();
    await member.getByText('Message unlocked!').waitFor();
    await member.getByTestId('message-content').getByText('Ten unseen frames, for subscribers').waitFor();
    await axe(member, 'messages with an unlocked mass message');
    await creator.reload();
    await sent
      .getByTestId('mass-stats')
      .getByText(/^Unlocked 1$/)
      .waitFor();
    await sent
      .getByTestId('mass-stats')
      .getByText(/^Revenue \$3\.50$/)
      .waitFor();
    await screenshot(creator, 'economy-mass-message');
  });

  it('the creator sees the tip and the unlock in analytics', async () => {
    expect(await stack.settle()).toBe(true); // earnings credited by the process managers
    await creator.goto('/dashboard/analytics');
    await creator.getByTestId('total-tips').getByText('$5.00').waitFor();
    await creator
      .getByTestId('total-tips')
      .getByText(/from 1 tip$/)
      .waitFor();
    await creator.getByTestId('total-unlocks').getByText('$3.50').waitFor();
    await creator
      .getByTestId('total-unlocks')
      .getByText(/from 1 unlock$/)
      .waitFor();
    const perDay = creator.getByRole('table', { name: 'Tips and unlocks per day' });
    await perDay.getByText('1 · $5.00').waitFor();
    await perDay.getByText('1 · $3.50').waitFor();
    await axe(creator, 'analytics');
    await screenshot(creator, 'economy-analytics');
  });

  it('the member claims the money-back guarantee and loses access', async () => {
    await member.goto('/subscriptions');
    const card = member.getByTestId('subscription-card');
    await card.getByText(/^Money-back guarantee until \d+ \w+ \d{4}$/).waitFor();
    await card.getByRole('button', { name: 'Money-back guarantee' }).click();
    const confirm = member.getByRole('dialog', { name: 'Claim the money-back guarantee?' });
    await confirm.getByRole('button', { name: 'Refund $19.99' }).click();
    await member.getByText('Refund on its way').waitFor();
    await card.getByText(/^Refunded: access ended on \d+ \w+ \d{4}$/).waitFor();
    await screenshot(member, 'economy-refunded');
    await member.goto(`/creator/${creatorId}`);
    await member.getByTestId('locked-overlay').first().waitFor();
    expect(await member.getByText('Only my subscribers read this', { exact: false }).count()).toBe(0);
  });

  it('finance staff refund part of the member’s site-plan charge; the member’s billing history shows it', async () => {
    const staffContext = await browser.newContext({
      baseURL: stack.url,
      colorScheme: 'light',
      viewport: { width: 1440, height: 1000 },
    });
    const staff = await newPage(staffContext);
    const staffEmail = `finance-${Date.now()}@example.com`;
    await ensureStaffAccount(
      stack.store,
      { email: staffEmail, passwordHash: () => hashPassword(PASSWORD) },
      { actorId: null, now: new Date() },
    );
    for (let i = 0; i < 100; i++) {
      const login = await post(staffContext.request, '/api/auth/login', { email: staffEmail, password: PASSWORD });
      const me = login.status() === 200 ? await (await staffContext.request.get('/api/auth/user')).json() : null;
      if (me?.role === 'admin') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await staff.goto(`/admin/payments?userId=${memberId}`);
    await staff.getByRole('heading', { name: 'Finance Console' }).waitFor();
    const signUpCharge = staff.getByRole('grid').getByRole('row').filter({ hasText: 'membership_signup' });
    await signUpCharge.getByText(memberEmail).click();
    const drawer = staff.getByRole('region', { name: 'Record details' });
    await drawer.getByRole('button', { name: 'Refund' }).click();
    const dialog = staff.getByRole('dialog', { name: 'Refund payment' });
    await dialog.getByLabel('Amount').fill('1.00');
    await dialog.getByLabel('Reason').fill('Goodwill: the site was down for a day');
    await axe(staff, 'refund dialog');
    await screenshot(staff, 'economy-refund-dialog');
    await dialog.getByRole('button', { name: 'Refund $1.00' }).click();
    await staff.getByText('Refund issued').waitFor();
    await drawer.getByText(/Refunded \$1\.00/).waitFor();
    await staffContext.close();

    await member.goto('/billing');
    const entries = member.getByTestId('billing-entry');
    const refund = entries.filter({ hasText: 'Refund: Lively site plan, 1 month' });
    await refund.getByText('+$1.00').waitFor();
    await entries
      .filter({ hasText: /^\d+ \w+ \d{4}Lively site plan/ })
      .getByText('Partially refunded')
      .waitFor();
    await entries.filter({ hasText: 'Refund: Subscription to Carla Creator' }).getByText('+$19.99').waitFor();
    await axe(member, 'billing history');
    await screenshot(member, 'economy-billing-refund');
  });

  it('at 390 px wide, the journey’s pages do not scroll sideways', async () => {
    const pages: Array<[Page, string]> = [
      [creator, '/dashboard'],
      [creator, '/dashboard/mass-messages'],
      [creator, '/dashboard/analytics'],
      [creator, `/creator/${creatorId}`],
      [member, '/subscriptions'],
      [member, '/billing'],
      [member, '/messages'],
    ];
    for (const [page, path] of pages) {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.getByRole('button', { name: 'User menu' }).waitFor(); // the app, not its loading bar
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(`${path}: ${scrollWidth}`).toBe(`${path}: ${innerWidth}`);
    }
    await screenshot(creator, 'economy-phone-creator-page');
  });

  it('all pages the journey opened pass axe (serious and critical findings)', () => {
    expect(axeFindings).toEqual([]);
  });
});
