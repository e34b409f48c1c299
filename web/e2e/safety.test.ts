import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hashPassword } from '../../domain/accounts/passwords';
import { ensureStaffAccount } from '../../domain/payouts/staff-role';
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
 * Issue 20's journey: a member reports a chat partner and blocks them; the two are not matched
 * again; staff see the report with the session's context and suspend the partner, whose open chat
 * closes and whose next login says the account is deactivated. Then the safety menus, the blocked
 * list and the moderation drawer at 390 px.
 */

const PASSWORD = 'Secret123';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const DEACTIVATED = 'Your account has been deactivated. Please contact support.';

let counter = 0;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined as T);
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describeInBrowser('trust and safety journey', () => {
  let stack: TestStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let ann: Page;
  let bob: Page;
  let bobEmail: string;
  let staff: Page;
  let creatorId: string;

  jest.setTimeout(300_000);

  const sideways = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  async function context(viewport = DESKTOP): Promise<BrowserContext> {
    const created = await browser.newContext({
      baseURL: stack.url,
      colorScheme: 'light',
      viewport,
      permissions: ['camera', 'microphone'],
    });
    contexts.push(created);
    return created;
  }

  /** A subscribed member registered through the API (sandbox card token); its email. */
  async function signUp(on: BrowserContext, firstName: string): Promise<{ email: string; id: string }> {
    const email = `${firstName.toLowerCase()}-${Date.now()}-${++counter}@example.com`;
    const res = await on.request.post('/api/auth/register', {
      headers: { Origin: stack.url },
      data: {
        firstName,
        lastName: 'Safety',
        email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        paymentToken: `dev_tok_safety${counter}x${Date.now()}`,
      },
    });
    expect(res.status()).toBe(201);
    const me = await until(
      async () => (await on.request.get('/api/auth/user')).json(),
      (user) => user?.subscriptionStatus === 'active',
    );
    return { email, id: me.id };
  }

  /** A member with a chat profile (through the API), on /chat and connected to the chat service. */
  async function chatter(firstName: string, displayName: string, gender: 'man' | 'woman', lookingFor: 'man' | 'woman') {
    const on = await context();
    const { email } = await signUp(on, firstName);
    const post = (url: string, data: unknown) => on.request.post(url, { headers: { Origin: stack.url }, data });
    const profile = await post('/api/profile', {
      displayName,
      age: 30,
      location: 'Austin, TX',
      genderIdentity: gender,
      sexualOrientation: 'straight',
      relationshipType: ['dating'],
      interests: ['Music'],
    });
    expect(profile.status()).toBeLessThan(300);
    const preferences = await post('/api/preferences', {
      ageRangeMin: 18,
      ageRangeMax: 99,
      maxDistance: 50,
      lookingForGenders: [lookingFor],
    });
    expect(preferences.status()).toBeLessThan(300);
    await until(
      async () => (await on.request.get('/api/profile')).status(),
      (status) => status === 200,
    );
    const page = await newPage(on);
    await page.goto('/chat');
    await page.getByTestId('chat-status-title').filter({ hasText: 'Ready to Connect' }).waitFor({ timeout: 30_000 });
    return { page, email };
  }

  beforeAll(async () => {
    stack = await startE2EStack();
    browser = await launchBrowser({ fakeMedia: true });
    // A creator with a post, for the profile and post menus.
    const creator = await context();
    creatorId = (await signUp(creator, 'Carla')).id;
    const post = (url: string, data: unknown) => creator.request.post(url, { headers: { Origin: stack.url }, data });
    expect((await post('/api/creators/register', { bio: 'Pottery at dawn' })).status()).toBe(201);
    expect(
      (await post('/api/posts', { title: 'Kiln day', content: 'Fresh out of the kiln', isPublic: true })).status(),
    ).toBeLessThan(300);
  });

  afterAll(async () => {
    for (const open of contexts) await open.close();
    await browser?.close();
    await stack?.close();
  });

  it('a member reports a chat partner, blocks them right after the call, and they are not matched again', async () => {
    ({ page: ann } = await chatter('Ann', 'Annie', 'woman', 'man'));
    ({ page: bob, email: bobEmail } = await chatter('Bob', 'Bobby', 'man', 'woman'));
    await ann.getByRole('button', { name: 'Start Chatting' }).click();
    await bob.getByRole('button', { name: 'Start Chatting' }).click();
    await ann
      .getByTestId('chat-footer')
      .filter({ hasText: /^Connected to Bobby/ })
      .waitFor({ timeout: 30_000 });

    // During the call: a report needs a reason from the list.
    await ann.getByRole('button', { name: 'Block or Report' }).click();
    await ann.getByRole('menuitem', { name: 'Report Bobby' }).click();
    const report = ann.getByRole('dialog', { name: 'Report this chat' });
    await report.getByRole('button', { name: 'Send Report' }).click();
    await report.getByText('Choose a reason').waitFor();
    await report.getByLabel('Harassment or bullying').check();
    await report.getByLabel('Details (optional)').fill('Insulted me as soon as the video started');
    await screenshot(ann, 'safety-report-chat-1280');
    await report.getByRole('button', { name: 'Send Report' }).click();
    await ann.getByText('Report Sent').waitFor();
    await report.waitFor({ state: 'detached' });

    // A second report of the same chat is refused, and the dialog says why.
    await ann.getByRole('button', { name: 'Block or Report' }).click();
    await ann.getByRole('menuitem', { name: 'Report Bobby' }).click();
    await report.getByLabel('Spam or scam').check();
    await report.getByRole('button', { name: 'Send Report' }).click();
    await expectText(report.getByRole('alert'), 'You already reported this. Our team is reviewing it.');
    await report.getByRole('button', { name: 'Close' }).click();

    // Bob leaves (no skip, so no cool-down keeps them apart); right after, Ann blocks him.
    await bob.getByRole('button', { name: 'Leave Chat' }).click();
    await ann.getByText('Waiting for match...').waitFor();
    await ann.getByRole('button', { name: 'Block or Report' }).click();
    await ann.getByRole('menuitem', { name: 'Block Bobby' }).click();
    const block = ann.getByRole('dialog', { name: 'Block Bobby?' });
    await block.getByText('You will never be matched in Lively Chat.').waitFor();
    await screenshot(ann, 'safety-block-confirm-1280');
    await block.getByRole('button', { name: 'Block' }).click();
    await ann.getByText('User Blocked').waitFor();

    // Both search; they are the only two members looking, and are never matched.
    await bob.getByRole('button', { name: 'Start Chatting' }).click();
    await bob.getByTestId('chat-status-title').filter({ hasText: 'Finding Match' }).waitFor();
    await ann.getByTestId('chat-status-title').filter({ hasText: 'Finding Match' }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 4000));
    for (const page of [ann, bob]) expect(await page.getByTestId('match-percentage').count()).toBe(0);
  });

  it("staff see the report with the chat's context and suspend the partner: his chat closes, his next login says deactivated", async () => {
    const staffEmail = `moderator-${Date.now()}@example.com`;
    await ensureStaffAccount(
      stack.store,
      { email: staffEmail, passwordHash: () => hashPassword(PASSWORD), firstName: 'Mo', lastName: 'Derator' },
      { actorId: null, now: new Date() },
    );
    const staffContext = await context();
    await until(
      async () =>
        (
          await staffContext.request.post('/api/auth/login', {
            headers: { Origin: stack.url },
            data: { email: staffEmail, password: PASSWORD },
          })
        ).status(),
      (status) => status === 200,
    );
    staff = await newPage(staffContext);
    await staff.goto('/');
    await staff.getByRole('button', { name: 'User menu' }).click();
    await staff.getByRole('menuitem', { name: 'Admin' }).click();
    await staff.getByRole('tab', { name: 'Reports' }).click();
    await staff.waitForURL('**/admin/reports');
    const row = staff.getByTestId('report-row').filter({ hasText: 'Bobby' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Harassment or bullying');
    await row.getByRole('button', { name: 'Review' }).click();

    const drawer = staff.getByRole('region', { name: 'Report details' });
    await drawer.getByText('Annie and Bobby').waitFor();
    await drawer.getByText('Insulted me as soon as the video started').waitFor();
    await drawer.getByText(/^\d+ (min \d+ )?s$/).waitFor();
    await screenshot(staff, 'safety-moderation-drawer-1280');

    await drawer.getByRole('button', { name: 'Suspend' }).click();
    await drawer.getByLabel('Days').fill('7');
    await drawer.getByRole('button', { name: 'Suspend for 7 days' }).click();
    await drawer.getByText('Reason is required').waitFor();
    await drawer.getByLabel('Reason').fill('Harassed a member in Lively Chat');
    await drawer.getByRole('button', { name: 'Suspend for 7 days' }).click();
    await expectText(drawer.getByTestId('standing'), /^Suspended until /);
    await drawer.getByRole('button', { name: 'Reinstate' }).waitFor();
    await screenshot(staff, 'safety-moderation-suspended-1280');
    // Resolved, it leaves the open queue.
    await drawer.getByRole('button', { name: 'Close' }).click();
    await staff.getByText('No reports match these filters.').waitFor();

    // Bob's open chat closes, and his session is gone: his next sign-in is refused.
    await bob.getByRole('img', { name: 'Not connected to chat service' }).waitFor();
    await bob.getByRole('alert').filter({ hasText: DEACTIVATED }).first().waitFor();
    await screenshot(bob, 'safety-suspended-chat-closed-1280');
    await bob.goto('/login');
    await bob.getByLabel('Email').fill(bobEmail);
    await bob.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await bob.getByRole('button', { name: 'Sign In' }).click();
    await expectText(bob.getByRole('alert'), DEACTIVATED);
    await screenshot(bob, 'safety-login-deactivated-1280');
  });

  it('at 390 px: the profile and post menus, the report dialog, Blocked users and the moderation drawer fit', async () => {
    await ann.setViewportSize(PHONE);
    await ann.goto(`/creator/${creatorId}`);
    await ann.getByRole('heading', { name: 'Carla Safety' }).waitFor();
    await ann.getByRole('button', { name: 'More actions for Carla Safety' }).click();
    await ann.getByRole('menuitem', { name: 'Block Carla Safety' }).waitFor();
    await ann.getByRole('menuitem', { name: 'Report' }).click();
    const report = ann.getByRole('dialog', { name: 'Report this person' });
    await report.waitFor();
    expect((await report.boundingBox())?.width).toBeCloseTo(PHONE.width, 0);
    expect(await seriousAxeViolations(ann, 'report dialog')).toEqual([]);
    await screenshot(ann, 'safety-report-dialog-390');
    await report.getByRole('button', { name: 'Cancel' }).click();

    await ann.getByRole('button', { name: 'More actions for Kiln day' }).click();
    await ann.getByRole('menuitem', { name: 'Report post' }).click();
    await ann.getByRole('dialog', { name: 'Report this post' }).getByLabel('Spam or scam').check();
    await ann.getByRole('dialog', { name: 'Report this post' }).getByRole('button', { name: 'Send Report' }).click();
    await ann.getByText('Report Sent').waitFor();
    expect(await sideways(ann)).toBeLessThanOrEqual(0);

    // Ann's blocked list: Bobby, with Unblock (44 px).
    await ann.goto('/profile#blocked-users');
    const blocked = ann.getByRole('list', { name: 'Blocked users' });
    await blocked.getByText('Bobby').waitFor();
    const unblock = blocked.getByRole('button', { name: 'Unblock Bobby' });
    expect((await unblock.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    expect(await sideways(ann)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(ann, '/profile')).toEqual([]);
    await screenshot(ann, 'safety-blocked-users-390');
    await unblock.click();
    await ann.getByText('User Unblocked').waitFor();
    await ann.getByText('You have not blocked anyone.', { exact: false }).waitFor();

    // The moderation queue on a phone: the table scrolls inside itself, the drawer is full width.
    await staff.setViewportSize(PHONE);
    await staff.goto('/admin/reports?status=all');
    const row = staff.getByTestId('report-row').filter({ hasText: 'Bobby' });
    await row.waitFor();
    expect(await sideways(staff)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(staff, '/admin/reports')).toEqual([]);
    await screenshot(staff, 'safety-moderation-queue-390');
    await row.click();
    const drawer = staff.getByRole('region', { name: 'Report details' });
    await drawer.getByText('Annie and Bobby').waitFor();
    expect((await staff.locator('.MuiDrawer-paper').boundingBox())?.width).toBeCloseTo(PHONE.width, 0);
    expect(await seriousAxeViolations(staff, 'moderation drawer')).toEqual([]);
    await screenshot(staff, 'safety-moderation-drawer-390');
  });
});
