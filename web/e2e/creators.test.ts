import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestStack } from '../../ops/testing/harness';
import { describeInBrowser, launchBrowser, newPage, screenshot, startE2EStack } from './support';
import { createSandboxIdentityProvider } from '../../domain/verification/sandbox-provider';
import { testPhoto } from '../../ops/testing/identity-verification';

/**
 * Issue 5's journey: a member becomes a creator, verifies their identity (issue 20: the dashboard's
 * banner, the form, the sandbox's answer) and publishes a locked post; a second member finds the
 * creator (with the Verified badge) through the search box, sees the post locked (the API holds no content),
 * subscribes to a tier, sees it unlocked and likes it; the creator sends a paid message; the
 * member gets a USD balance by converting crypto and unlocks the message.
 */
const PASSWORD = 'Secret123';
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

describeInBrowser('creators and social journey', () => {
  let stack: TestStack;
  let browser: Browser;
  let creatorContext: BrowserContext;
  let memberContext: BrowserContext;
  let creator: Page;
  let member: Page;
  let creatorId: string;
  let memberId: string;

  jest.setTimeout(240_000);

  async function signUp(context: BrowserContext, firstName: string, lastName: string): Promise<string> {
    const res = await context.request.post('/api/auth/register', {
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
      const me = await context.request.get('/api/auth/user');
      if (me.status() === 200 && (await me.json()).subscriptionStatus === 'active') return (await me.json()).id;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('sign-up did not activate');
  }

  beforeAll(async () => {
    stack = await startE2EStack({ ports: { identityProvider: createSandboxIdentityProvider(1500) } });
    browser = await launchBrowser();
    const options = { baseURL: stack.url, colorScheme: 'light' as const, viewport: { width: 1280, height: 900 } };
    creatorContext = await browser.newContext(options);
    memberContext = await browser.newContext(options);
    creator = await newPage(creatorContext);
    member = await newPage(memberContext);
    creatorId = await signUp(creatorContext, 'Carla', 'Creator');
    memberId = await signUp(memberContext, 'Milo', 'Member');
  });

  afterAll(async () => {
    await creatorContext?.close();
    await memberContext?.close();
    await browser?.close();
    await stack?.close();
  });

  it('a member becomes a creator from the dashboard', async () => {
    await creator.goto('/');
    await creator.getByText('Become a Creator').first().waitFor();
    await creator.getByRole('link', { name: 'Become a Creator' }).click();
    await creator.getByRole('button', { name: 'Start Your Creator Journey' }).click();
    await creator.getByRole('button', { name: 'Become Creator' }).click();
    await creator.getByText('Bio is required').waitFor();
    await creator.getByLabel('Bio').fill('Golden-hour photography from rooftops around the world');
    await creator.getByLabel('Cover Image URL (optional)').fill('https://images.example.com/cover.jpg');
    await creator.getByRole('button', { name: 'Become Creator' }).click();
    await creator.getByText('Welcome, Creator!').waitFor();
    await creator.getByRole('heading', { name: /Welcome back, Carla Creator/ }).waitFor();
    for (const label of ['Total Earnings', 'Subscribers', 'Posts', 'Engagement'])
      await creator.getByTestId(`stat-${label}`).waitFor();
    await creator.getByText('No recent activity').waitFor();
    await screenshot(creator, 'creators-dashboard');
  });

  it('the dashboard asks the creator to verify their identity; the form checks, sends, and the sandbox verifies', async () => {
    await creator.getByTestId('identity-verification-banner').waitFor();
    await creator.getByRole('link', { name: 'Verify now' }).click();
    await creator.getByRole('heading', { name: 'Identity verification' }).waitFor();
    await creator.getByRole('button', { name: 'Submit for verification' }).click();
    await creator.getByText('A photo of your ID document is required').waitFor();
    await creator.getByRole('textbox', { name: /Legal name/ }).fill('Carla Creator');
    await creator.getByLabel(/Date of birth/).fill('1992-03-14');
    const photo = { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await testPhoto() };
    await creator.getByLabel('ID document', { exact: true }).setInputFiles(photo);
    await creator.getByLabel('Selfie', { exact: true }).setInputFiles(photo);
    await creator.getByAltText('ID document preview').waitFor();
    await screenshot(creator, 'creators-verification-form');
    await creator.getByRole('button', { name: 'Submit for verification' }).click();
    await creator.getByText('Checking your identity').waitFor();
    await creator.getByText('Your identity is verified').waitFor({ timeout: 20_000 }); // the page polls
    await creator.getByRole('link', { name: 'Back to dashboard' }).click();
    await creator.getByRole('heading', { name: /Welcome back, Carla Creator/ }).waitFor();
    expect(await creator.getByTestId('identity-verification-banner').count()).toBe(0);
  });

  it('the creator publishes a locked post (the modal validates first)', async () => {
    await creator.getByRole('button', { name: 'Create New Post' }).click();
    const dialog = creator.getByRole('dialog', { name: 'New Post' });
    await dialog.getByRole('button', { name: 'Create Post' }).click();
    await dialog.getByText('Title is required').waitFor();
    await dialog.getByText('Content is required').waitFor();
    await dialog.getByLabel('Title').fill('Rooftop sunset set');
    await dialog.getByLabel('Content').fill('Twelve unreleased frames from last night.');
    await dialog.getByLabel('Media URL (optional)').fill('not a url');
    await dialog.getByRole('button', { name: 'Create Post' }).click();
    await dialog.getByText('Media URL must be a valid URL').waitFor();
    await dialog.getByLabel('Media URL (optional)').fill('https://images.example.com/sunset.jpg');
    expect(await dialog.getByLabel('Make public (visible to all users)').isChecked()).toBe(false);
    await dialog.getByRole('button', { name: 'Create Post' }).click();
    await creator.getByText('Post created!').waitFor();
    await creator.goto(`/creator/${creatorId}`);
    await creator
      .getByRole('button', { name: 'Edit Profile' })
      .or(creator.getByRole('link', { name: 'Edit Profile' }))
      .waitFor();
    await creator.getByText('Twelve unreleased frames from last night.').waitFor(); // the owner sees it unlocked
  });

  it('a second member finds the creator by search and sees the post locked; the API holds no content', async () => {
    await member.goto('/');
    await member.getByText('No posts in your feed yet. Subscribe to creators to see their content!').waitFor();
    const search = member.getByPlaceholder('Search creators...');
    await search.fill('rooftops');
    await search.press('Enter');
    await member.getByRole('heading', { name: 'Creators matching "rooftops"' }).waitFor();
    await member.getByTestId('creator-card').getByRole('img', { name: 'Verified creator' }).waitFor();
    await member.getByTestId('creator-card').getByText('Carla Creator').click();
    await member.getByRole('heading', { name: 'Carla Creator' }).waitFor();
    await member.getByTestId('locked-overlay').waitFor();
    expect(await member.getByText('Twelve unreleased frames').count()).toBe(0);
    const api = await memberContext.request.get(`/api/creators/${creatorId}/posts`);
    const body = await api.text();
    expect(body).toContain('Rooftop sunset set');
    expect(body).not.toContain('Twelve unreleased frames');
    expect(body).not.toContain('sunset.jpg');
    await screenshot(member, 'creators-locked');
  });

  it('subscribes to a tier, sees the post unlocked and likes it', async () => {
    await member.getByRole('button', { name: 'Subscribe', exact: true }).click();
    const dialog = member.getByRole('dialog');
    await dialog.getByText('Most Popular').waitFor();
    await dialog.getByText(/7-day money-back guarantee/).waitFor();
    await dialog.getByText(/Cancel anytime/).waitFor();
    expect(await dialog.getByTestId('tier-card').count()).toBe(3);
    await screenshot(member, 'creators-tiers');
    await dialog.getByRole('button', { name: 'Subscribe to Premium' }).click();
    await member.getByText('Subscription successful!').waitFor();
    await member.getByText('Twelve unreleased frames from last night.').waitFor();
    await member.getByRole('link', { name: 'Message', exact: true }).waitFor();
    expect(await member.getByTestId('locked-overlay').count()).toBe(0);
    await member.getByRole('button', { name: 'Like, 0 likes', exact: true }).click();
    await member.getByRole('button', { name: 'Unlike, 1 like', exact: true }).waitFor();
    expect(await member.getByTestId('like-count').textContent()).toBe('1');
    await screenshot(member, 'creators-unlocked');
  });

  it('the creator sends a paid message', async () => {
    await creator.goto(`/messages?user=${memberId}`);
    await creator.getByText('No messages yet').waitFor();
    await creator.getByRole('heading', { name: 'Milo Member' }).waitFor();
    await creator.getByLabel('Message', { exact: true }).fill('  A private frame, just for you  ');
    await creator.getByLabel('Price (optional, makes it a paid message)').fill('4.99');
    await creator.getByRole('button', { name: 'Send' }).click();
    await screenshot(creator, 'creators-paid-sent');
    await creator.getByTestId('message-content').getByText('A private frame, just for you').waitFor();
  });

  it('the member converts crypto to a balance, unlocks the message and reads it', async () => {
    const convert = await memberContext.request.post('/api/crypto/convert', {
      headers: { Origin: stack.url },
      data: { cryptoAmount: '20', cryptoType: 'USDC', walletAddress: ADDRESS },
    });
    expect(convert.status()).toBeLessThan(300);
    for (let i = 0; i < 200; i++) {
      const balance = await (await memberContext.request.get('/api/crypto/balance')).json();
      if (Number(balance.totalUsd) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await member.goto('/messages');
    await member.getByText('Paid message', { exact: true }).waitFor(); // the conversation's last message
    await member.getByText('Carla Creator').first().click();
    const unlock = member.getByRole('button', { name: 'Unlock for $4.99' });
    await unlock.waitFor();
    expect(await member.getByText('A private frame').count()).toBe(0);
    await screenshot(member, 'creators-paid-locked');
    await unlock.click();
    await member.getByText('Message unlocked!').waitFor();
    await member.getByTestId('message-content').getByText('A private frame, just for you').waitFor();
    await screenshot(member, 'creators-paid-unlocked');
  });
});
