import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestStack } from '../../ops/testing/harness';
import { describeInBrowser, launchBrowser, newPage, screenshot, startE2EStack } from './support';

/** Issue 7's journey: two members set up chat profiles, are matched, talk over WebRTC, skip, leave. */

let counter = 0;

/** Records every RTCPeerConnection the page makes, so the test can read its state. */
const TRACK_PEERS = () => {
  const Native = window.RTCPeerConnection;
  const peers: RTCPeerConnection[] = [];
  (window as unknown as { __peers: RTCPeerConnection[] }).__peers = peers;
  window.RTCPeerConnection = class extends Native {
    constructor(config?: RTCConfiguration) {
      super(config);
      peers.push(this);
    }
  } as typeof RTCPeerConnection;
};

describeInBrowser('lively chat journey', () => {
  let stack: TestStack;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  jest.setTimeout(240_000);

  beforeAll(async () => {
    stack = await startE2EStack();
    browser = await launchBrowser({ fakeMedia: true });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stack?.close();
  });

  /** A member in a browser context of its own, registered through the API (sandbox card token). */
  async function member(firstName: string): Promise<Page> {
    const context = await browser.newContext({
      baseURL: stack.url,
      viewport: { width: 1280, height: 900 },
      permissions: ['camera', 'microphone'],
    });
    contexts.push(context);
    await context.addInitScript(TRACK_PEERS);
    const email = `${firstName.toLowerCase()}-${Date.now()}-${++counter}@example.com`;
    const res = await context.request.post('/api/auth/register', {
      headers: { Origin: stack.url },
      data: {
        firstName,
        lastName: 'Chat',
        email,
        password: 'Secret123',
        confirmPassword: 'Secret123',
        paymentToken: `dev_tok_chat${counter}x${Date.now()}`,
      },
    });
    expect(res.status()).toBe(201);
    // On a busy machine the users read model may lag the answer: wait for the member's row.
    for (let i = 0; i < 200 && !(await stack.db('users').where({ email }).first('id')); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    return newPage(context);
  }

  async function setUpProfile(page: Page, name: string, gender: 'Man' | 'Woman', lookingFor: 'Man' | 'Woman') {
    await page.goto('/profile-setup');
    await page.getByRole('heading', { name: 'Create Your Lively Chat Profile' }).waitFor();
    await expect(page.getByRole('button', { name: 'Previous' }).isDisabled()).resolves.toBe(true);
    await page.getByLabel('Display Name', { exact: true }).fill(name);
    await page.getByLabel('Age', { exact: true }).fill('30');
    await page.getByPlaceholder('City, State').fill('Austin, TX');
    await page.getByRole('combobox', { name: 'Gender Identity' }).click();
    await page.getByRole('option', { name: gender, exact: true }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Interests & Relationship Types' }).waitFor();
    await page.getByRole('button', { name: 'Music' }).click();
    await page.getByRole('button', { name: 'Travel' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Matching Preferences' }).waitFor();
    await page.getByLabel(lookingFor, { exact: true }).check();
    // Validation happens at submit: no relationship type yet, so back to step 2 with the SPEC message.
    await page.getByRole('button', { name: 'Create Profile' }).click();
    await page.getByText('Select at least one relationship type').waitFor();
    await page.getByLabel('Dating', { exact: true }).check();
    for (let i = 0; i < 2; i++) await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Create Profile' }).click();
    await page.getByText('Profile Created!').waitFor();
    await page.waitForURL('**/chat');
  }

  const peerState = (page: Page) =>
    page.evaluate(() => (window as unknown as { __peers: RTCPeerConnection[] }).__peers.map((p) => p.connectionState));
  const remotePlaying = (page: Page) =>
    page.evaluate(() => {
      const video = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
      return !!video && !video.paused && video.readyState >= 2 && video.currentTime > 0 && video.videoWidth > 0;
    });

  it('matches two members, connects their video, and ends the chat on Next and Leave', async () => {
    const ann = await member('Ann');
    const bob = await member('Bob');
    await setUpProfile(ann, 'Annie', 'Woman', 'Man');
    await setUpProfile(bob, 'Bobby', 'Man', 'Woman');

    for (const page of [ann, bob]) {
      await page.getByRole('heading', { name: 'Lively Chat', exact: true }).waitFor();
      await page.getByText('How Lively Chat Works').waitFor();
      await page.getByTestId('chat-status-title').filter({ hasText: 'Ready to Connect' }).waitFor({ timeout: 30_000 });
    }
    await screenshot(ann, 'chat-ready');
    await ann.getByRole('button', { name: 'Start Chatting' }).click();
    await ann.getByTestId('chat-status-title').filter({ hasText: 'Finding Match' }).waitFor();
    await bob.getByRole('button', { name: 'Start Chatting' }).click();

    // Matched, with a compatibility percentage; then the peer connections reach `connected`.
    for (const page of [ann, bob])
      await page
        .getByTestId('match-percentage')
        .filter({ hasText: /^\d{1,3}% Match$/ })
        .waitFor();
    await ann.getByText('Bobby').first().waitFor();
    await bob.getByText('Annie').first().waitFor();
    for (const page of [ann, bob]) {
      await page.waitForFunction(
        () =>
          (window as unknown as { __peers: RTCPeerConnection[] }).__peers.some(
            (p) => p.connectionState === 'connected',
          ),
        undefined,
        { timeout: 30_000 },
      );
      await page.waitForFunction(
        () => {
          const video = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
          return !!video && !video.paused && video.readyState >= 2 && video.currentTime > 0 && video.videoWidth > 0;
        },
        undefined,
        { timeout: 30_000 },
      );
      expect(await remotePlaying(page)).toBe(true);
      await page
        .getByTestId('chat-footer')
        .filter({ hasText: /^Connected to (Annie|Bobby) \(\d{1,3}% compatibility\)$/ })
        .waitFor();
    }
    expect(await peerState(ann)).toContain('connected');
    await screenshot(ann, 'chat-connected-ann');
    await screenshot(bob, 'chat-connected-bob');

    // Ann reports Bob: a report needs a reason from the list; the chat goes on.
    await ann.getByRole('button', { name: 'Block or Report' }).click();
    await ann.getByRole('menuitem', { name: 'Report Bobby' }).click();
    const dialog = ann.getByRole('dialog', { name: 'Report this chat' });
    await dialog.getByRole('button', { name: 'Send Report' }).click();
    await dialog.getByText('Choose a reason').waitFor();
    await dialog.getByLabel('Harassment or bullying').check();
    await dialog.getByLabel('Details (optional)').fill('Rude language');
    await screenshot(ann, 'chat-block-report-dialog');
    await dialog.getByRole('button', { name: 'Send Report' }).click();
    await ann.getByText('Report Sent').waitFor();
    await dialog.waitFor({ state: 'detached' });
    let report: { reason: string; details: string | null } | undefined;
    for (let i = 0; i < 100 && !report; i++) {
      report = await stack.db('reports').where({ target_type: 'chat_session' }).first('reason', 'details');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(report).toEqual({ reason: 'harassment', details: 'Rude language' });
    await ann
      .getByTestId('chat-footer')
      .filter({ hasText: /^Connected to Bobby/ })
      .waitFor();

    // Ann presses Next: Bob's chat ends (he is searching again), Ann sees 'Finding Next Match'.
    await ann.getByRole('button', { name: 'Next' }).click();
    await ann.getByText('Finding Next Match').waitFor();
    await bob.getByTestId('chat-status-title').filter({ hasText: 'Finding Match' }).waitFor();
    await bob.getByText('Waiting for match...').waitFor();
    expect(await bob.getByTestId('match-percentage').count()).toBe(0);
    await bob.waitForFunction(() =>
      (window as unknown as { __peers: RTCPeerConnection[] }).__peers.every(
        (p) => p.connectionState === 'closed' || p.connectionState === 'failed' || p.connectionState === 'disconnected',
      ),
    );
    await screenshot(bob, 'chat-partner-skipped');

    // Both leave.
    for (const page of [ann, bob]) {
      await page.getByRole('button', { name: 'Leave Chat' }).click();
      await page.getByText('Chat Ended').waitFor();
      await page.getByRole('button', { name: 'Start Chatting' }).waitFor();
    }
    // The session was recorded as events: started, then ended by the skip.
    let sessions: unknown[] = [];
    for (let i = 0; i < 100; i++) {
      sessions = await stack.db('chat_sessions').select('status', 'end_reason');
      if (sessions.length === 1 && (sessions[0] as { status: string }).status === 'skipped') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(sessions).toEqual([{ status: 'skipped', end_reason: 'skipped' }]);
    bobPage = bob;
  });

  let bobPage: Page;

  it('blocks the current partner from the chat page: the chat ends and they are never matched again', async () => {
    const bob = bobPage;
    const cleo = await member('Cleo');
    await setUpProfile(cleo, 'Cleo', 'Woman', 'Man');
    await cleo.getByTestId('chat-status-title').filter({ hasText: 'Ready to Connect' }).waitFor({ timeout: 30_000 });
    await bob.getByRole('button', { name: 'Start Chatting' }).click();
    await cleo.getByRole('button', { name: 'Start Chatting' }).click();
    await cleo.getByText('Bobby').first().waitFor();

    await cleo.getByRole('button', { name: 'Block or Report' }).click();
    await cleo.getByRole('menuitem', { name: 'Block Bobby' }).click();
    const dialog = cleo.getByRole('dialog', { name: 'Block Bobby?' });
    await dialog.getByText('You will never be matched in Lively Chat.').waitFor();
    await dialog.getByRole('button', { name: 'Block' }).click();
    await cleo.getByText('User Blocked').waitFor();
    await cleo.getByText('You blocked Bobby. Unblock them any time in your Profile.').waitFor();
    await screenshot(cleo, 'chat-partner-blocked');
    // Bob's chat ends; both search again and are not matched with each other.
    await bob.getByText('Waiting for match...').waitFor();
    await cleo.getByTestId('chat-status-title').filter({ hasText: 'Finding Match' }).waitFor({ timeout: 10_000 });
    await bob.getByTestId('chat-status-title').filter({ hasText: 'Finding Match' }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await cleo.getByTestId('match-percentage').count()).toBe(0);
    const blocks = await stack.db('user_blocks').select('blocker_id', 'blocked_id');
    expect(blocks).toHaveLength(1);
  });
});
