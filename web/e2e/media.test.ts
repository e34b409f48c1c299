import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import type { MediaAttachment } from '../../domain/contracts/media';
import { runTool } from '../../domain/media/ffmpeg';
import type { TestStack } from '../../ops/testing/harness';
import { verifyCreatorIdentity } from './identity';
import { describeInBrowser, launchBrowser, newPage, screenshot, seriousAxeViolations, startE2EStack } from './support';

/**
 * Issue 18's journey: a creator drops a photo and a short video into the New Post dialog, sees
 * them upload and process, and publishes a locked post. A member who does not subscribe to the
 * creator sees only blurred previews (no original is ever served to them, and the creator's own
 * original URL answers 403 in their session); after subscribing the photo loads and the video plays.
 */
const PASSWORD = 'Secret123';
const PREVIEW = /\/files\/(preview\.webp|poster-preview\.webp)\?/;
const FILES = /\/api\/media\/[^/]+\/files\//;

describeInBrowser('media journey', () => {
  let stack: TestStack;
  let browser: Browser;
  let creatorContext: BrowserContext;
  let memberContext: BrowserContext;
  let creator: Page;
  let member: Page;
  let creatorId: string;
  let memberId: string;
  let workDir: string;
  const memberFileResponses: { url: string; status: number }[] = [];

  jest.setTimeout(300_000);

  async function signUp(context: BrowserContext, firstName: string): Promise<string> {
    const res = await context.request.post('/api/auth/register', {
      headers: { Origin: stack.url },
      data: {
        firstName,
        lastName: 'Media',
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

  /** A generated photo and a 2-second test-pattern video with sound. */
  async function makeFiles() {
    workDir = mkdtempSync(path.join(os.tmpdir(), 'media-e2e-'));
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#f97316"/><stop offset="1" stop-color="#7c3aed"/></linearGradient></defs>
      <rect width="1600" height="1000" fill="url(#g)"/><circle cx="1100" cy="420" r="220" fill="#fde047"/>
      <text x="120" y="860" font-size="140" font-family="sans-serif" fill="white">Rooftop</text></svg>`;
    const photo = path.join(workDir, 'rooftop.jpg');
    await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toFile(photo);
    const video = path.join(workDir, 'pattern.mp4');
    await runTool('ffmpeg', [
      ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=640x360:rate=25'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-shortest', video],
    ]);
    return [
      { name: 'rooftop.jpg', type: 'image/jpeg', base64: readFileSync(photo).toString('base64') },
      { name: 'pattern.mp4', type: 'video/mp4', base64: readFileSync(video).toString('base64') },
    ];
  }

  /** Drops files on the uploader the way a desktop drag does: a drop event carrying them. */
  async function dropFiles(page: Page, files: { name: string; type: string; base64: string }[]) {
    const dataTransfer = await page.evaluateHandle((list) => {
      const transfer = new DataTransfer();
      for (const file of list) {
        const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
        // A fixed date: the same file dropped again after a reload has the same tus fingerprint.
        transfer.items.add(new File([bytes], file.name, { type: file.type, lastModified: 1_700_000_000_000 }));
      }
      return transfer;
    }, files);
    await page.getByTestId('media-drop-zone').dispatchEvent('drop', { dataTransfer });
  }

  async function lockedPostMedia(context: BrowserContext): Promise<MediaAttachment[]> {
    const res = await context.request.get(`/api/creators/${creatorId}/posts`);
    expect(res.status()).toBe(200);
    const body = await res.json();
    const posts = (Array.isArray(body) ? body : body.posts) as { title: string; media: MediaAttachment[] }[];
    return posts.find((post) => post.title === 'Golden hour, moving')!.media;
  }

  const noSidewaysScroll = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  beforeAll(async () => {
    stack = await startE2EStack();
    browser = await launchBrowser();
    const options = { baseURL: stack.url, colorScheme: 'light' as const, viewport: { width: 1280, height: 900 } };
    creatorContext = await browser.newContext(options);
    memberContext = await browser.newContext(options);
    creator = await newPage(creatorContext);
    member = await newPage(memberContext);
    creatorId = await signUp(creatorContext, 'Rhea');
    memberId = await signUp(memberContext, 'Nico');
    const registered = await creatorContext.request.post('/api/creators/register', {
      headers: { Origin: stack.url },
      data: { bio: 'Rooftop light, photographed and filmed' },
    });
    expect(registered.status()).toBeLessThan(300);
    await verifyCreatorIdentity(stack, creatorContext.request, creatorId); // locked posts need it (issue 20)
    member.on('response', (response) => {
      if (FILES.test(response.url())) memberFileResponses.push({ url: response.url(), status: response.status() });
    });
  });

  afterAll(async () => {
    await creatorContext?.close();
    await memberContext?.close();
    await browser?.close();
    await stack?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('the creator drops a photo and a video into the composer, watches them process and publishes a locked post', async () => {
    const files = await makeFiles();
    await creator.goto('/dashboard');
    await creator.getByRole('button', { name: 'Create New Post' }).click();
    const dialog = creator.getByRole('dialog', { name: 'New Post' });
    await dialog.getByLabel('Title').fill('Golden hour, moving');
    await dialog.getByLabel('Content').fill('A still and a clip from last night.');
    await dropFiles(creator, files);

    const create = dialog.getByRole('button', { name: 'Create Post' });
    const rows = dialog.getByTestId('upload-entry');
    expect(await rows.count()).toBe(2);
    expect(await create.isDisabled()).toBe(true); // nothing is ready yet
    // Each row goes from "Uploading n%" through "Processing… n%" (polled from the server) to "Ready".
    const seen = new Set<string>();
    for (let i = 0; i < 1200; i++) {
      for (const text of await rows.allTextContents()) seen.add(text);
      if ((await dialog.getByText('Ready', { exact: true }).count()) === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await dialog.getByText('Ready', { exact: true }).nth(1).waitFor();
    expect([...seen].some((text) => /^pattern\.mp4Processing… \d+%$/.test(text))).toBe(true);
    expect(await rows.first().getAttribute('aria-label')).toBe('rooftop.jpg (1 of 2)');
    await screenshot(creator, 'media-composer-ready');
    expect(await create.isDisabled()).toBe(false);
    await create.click();
    await creator.getByText('Post created!').waitFor();

    const media = await lockedPostMedia(creatorContext);
    expect(media.map((item) => item.kind)).toEqual(['image', 'video']);
    expect(media.every((item) => item.url)).toBe(true); // the owner is entitled
  });

  it('a member who does not subscribe sees blurred previews; no original reaches them, and the URL is refused', async () => {
    await member.goto(`/creator/${creatorId}`);
    const overlay = member.getByTestId('locked-overlay');
    await overlay.waitFor();
    await overlay.getByRole('button', { name: 'Subscribe to unlock' }).waitFor();
    expect(await member.getByTestId('media-preview').count()).toBe(2);
    await member.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('[data-testid="media-preview"] img')].every(
        (img) => img.complete && img.naturalWidth > 0,
      ),
    );
    expect(await member.locator('video').count()).toBe(0);
    await screenshot(member, 'media-locked-1280');

    await member.setViewportSize({ width: 390, height: 844 });
    await member.getByTestId('media-preview').first().scrollIntoViewIfNeeded();
    expect(await noSidewaysScroll(member)).toBe(true);
    await screenshot(member, 'media-locked-390');
    await member.setViewportSize({ width: 1280, height: 900 });

    expect(memberFileResponses.length).toBeGreaterThanOrEqual(2);
    const originals = memberFileResponses.filter((response) => !PREVIEW.test(response.url));
    expect(originals.filter((response) => response.status < 400)).toEqual([]);

    const seenByMember = await lockedPostMedia(memberContext);
    expect(seenByMember.some((item) => item.url || item.posterUrl)).toBe(false);
    for (const item of await lockedPostMedia(creatorContext)) {
      const stolen = await memberContext.request.get(item.url!);
      expect(stolen.status()).toBe(403);
    }
  });

  it('after subscribing the photo loads and the video plays', async () => {
    await member.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await member.getByRole('dialog').getByRole('button', { name: 'Subscribe to Premium' }).click();
    await member.getByText('Subscription successful!').waitFor();
    await member.getByText('A still and a clip from last night.').waitFor();
    expect(await member.getByTestId('locked-overlay').count()).toBe(0);

    const photo = member.getByRole('button', { name: /Open photo: Golden hour, moving/ });
    await photo.waitFor();
    await member.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[aria-label^="Open photo"] img');
      return Boolean(img?.complete && img.naturalWidth > 0);
    });
    // The video is its poster until pressed (no player built as the page loads): pressed, the
    // player takes its place, focused, and plays.
    expect(await member.locator('video').count()).toBe(0);
    const play = member.getByRole('button', { name: /^Play video: Golden hour, moving/ });
    await member.waitForFunction(() => {
      const poster = document.querySelector<HTMLImageElement>('[aria-label^="Play video"] img');
      return Boolean(poster?.complete && poster.naturalWidth > 0);
    });
    await screenshot(member, 'media-video-poster-1280');
    // Reached by keyboard it shows a ring, and Enter plays it.
    await play.focus();
    await member.keyboard.press('Shift+Tab');
    await member.keyboard.press('Tab');
    expect(await play.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('solid');
    await member.keyboard.press('Enter');
    const video = member.locator('video');
    await video.waitFor();
    expect(await video.evaluate((element) => element === document.activeElement)).toBe(true);
    // It plays: its time moves on by 0.3 s (within 10 s: a loaded machine decodes slowly).
    const played = await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      if (element.paused) await element.play();
      const start = element.currentTime;
      for (let waited = 0; waited < 10_000 && element.currentTime <= start + 0.3; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      return { start, now: element.currentTime };
    });
    expect(played.now).toBeGreaterThan(played.start + 0.3);
    await screenshot(member, 'media-unlocked-1280');

    await photo.click();
    const lightbox = member.getByRole('dialog');
    await lightbox.locator('img').waitFor();
    await member.waitForTimeout(400); // the dialog's fade-in
    await screenshot(member, 'media-lightbox-1280');
    await member.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });

    await member.setViewportSize({ width: 390, height: 844 });
    await photo.scrollIntoViewIfNeeded();
    expect(await noSidewaysScroll(member)).toBe(true);
    await screenshot(member, 'media-unlocked-390');
    await photo.click();
    await member.getByRole('dialog').locator('img').waitFor();
    await member.waitForTimeout(400);
    await screenshot(member, 'media-lightbox-390');
    await member.keyboard.press('Escape');
    await member.setViewportSize({ width: 1280, height: 900 });
  });

  it('the vault lists both items; one in use cannot be deleted; Use in a post preselects it', async () => {
    await creator.goto('/vault');
    const items = creator.getByTestId('vault-item');
    await items.nth(1).waitFor();
    expect(await items.count()).toBe(2);
    await creator.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLImageElement>('[data-testid="vault-item"] img')].filter(
          (img) => img.naturalWidth > 0,
        ).length === 2,
    );
    await creator.getByRole('button', { name: 'Videos', exact: true }).click();
    await creator.waitForFunction(() => document.querySelectorAll('[data-testid="vault-item"]').length === 1);
    await creator.getByRole('button', { name: 'All', exact: true }).click();
    await items.nth(1).waitFor();
    expect(await seriousAxeViolations(creator, '/vault')).toEqual([]);
    await screenshot(creator, 'media-vault-1280');

    await items.first().getByRole('button', { name: 'Delete' }).click();
    const confirm = creator.getByRole('dialog');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('alert').waitFor(); // 409: the post uses it
    await screenshot(creator, 'media-vault-in-use');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });

    await creator.setViewportSize({ width: 390, height: 844 });
    expect(await noSidewaysScroll(creator)).toBe(true);
    await screenshot(creator, 'media-vault-390');
    await items.first().getByRole('button', { name: 'Use in a post' }).click();
    const composer = creator.getByRole('dialog', { name: 'New Post' });
    await composer.getByText('Ready', { exact: true }).waitFor();
    expect(await composer.getByTestId('upload-entry').count()).toBe(1);
    expect(await composer.getByRole('button', { name: 'Create Post' }).isDisabled()).toBe(false);
    expect(await noSidewaysScroll(creator)).toBe(true);
    await screenshot(creator, 'media-composer-preselected-390');
    await composer.getByRole('button', { name: 'Cancel' }).click();
    await creator.setViewportSize({ width: 1280, height: 900 });
  });

  it('a text file named .jpg is refused with its reason; a video cut off by a reload resumes where it stopped', async () => {
    await creator.goto('/dashboard?newPost=1');
    const dialog = creator.getByRole('dialog', { name: 'New Post' });
    const notes = { name: 'notes.jpg', type: 'image/jpeg', base64: Buffer.from('just some text').toString('base64') };
    await dropFiles(creator, [notes]);
    await dialog.getByRole('alert').getByText('Unsupported file type').waitFor();
    expect(await dialog.getByRole('button', { name: 'Create Post' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Remove notes.jpg' }).click();

    const big = path.join(workDir, 'long.mp4');
    await runTool('ffmpeg', [
      ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=duration=4:size=1280x720:rate=30'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p', big],
    ]);
    const video = { name: 'long.mp4', type: 'video/mp4', base64: readFileSync(big).toString('base64') };
    const tus: { method: string; url: string; offset?: string }[] = [];
    creator.on('request', (request) => {
      if (request.url().includes('/api/media/uploads'))
        tus.push({ method: request.method(), url: request.url(), offset: request.headers()['upload-offset'] });
    });
    // About 1 MB/s up: the 8 MB upload is still under way when the page reloads.
    const cdp = await creatorContext.newCDPSession(creator);
    await cdp.send('Network.enable');
    const throttle = (up: number) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: up,
      });
    await throttle(1_000_000);
    await dropFiles(creator, [video]);
    await creator.waitForFunction(() =>
      /Uploading ([2-9]\d)%/.test(document.querySelector('[data-testid="upload-entry"]')?.textContent ?? ''),
    );
    await creator.reload();
    await throttle(-1);

    await dialog.waitFor();
    await dropFiles(creator, [video]);
    await dialog.getByText('Ready', { exact: true }).waitFor({ timeout: 60_000 });
    expect(tus.filter((request) => request.method === 'POST')).toHaveLength(1); // one upload, not two
    const patches = tus.filter((request) => request.method === 'PATCH');
    expect(patches.length).toBeGreaterThanOrEqual(2);
    expect(Number(patches.at(-1)!.offset)).toBeGreaterThan(1_000_000); // went on from the bytes already there
    expect(tus.some((request) => request.method === 'HEAD')).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('the creator sets a cropped cover and avatar; both are public, stable URLs', async () => {
    const [photo] = await makeFiles();
    await creator.goto('/dashboard');
    for (const [button, saved] of [
      ['Change Cover Image', 'Your cover image was updated.'],
      ['Change Profile Photo', 'Your profile photo was updated.'],
    ] as const) {
      await creator.getByRole('button', { name: button }).click();
      await dropFiles(creator, [photo!]);
      const box = creator.getByTestId('crop-box');
      await box.waitFor();
      await box.focus();
      await creator.keyboard.press('ArrowRight');
      await screenshot(creator, `media-crop-${button === 'Change Cover Image' ? 'cover' : 'avatar'}`);
      await creator.getByRole('button', { name: 'Save' }).click();
      await creator.getByText(saved).waitFor();
    }
    await creator.goto(`/creator/${creatorId}`);
    const cover = creator.getByTestId('creator-cover');
    await cover.waitFor();
    const coverUrl = /\/api\/media\/[^/"')]+\/public\/[^"')]+/.exec(await cover.evaluate((el) => el.outerHTML))?.[0];
    expect(coverUrl).toBeTruthy();
    const me = await (await creatorContext.request.get('/api/auth/user')).json();
    expect(me.profileImageUrl).toMatch(/^\/api\/media\/[^/]+\/public\//);
    const visitor = await browser.newContext({ baseURL: stack.url });
    for (const url of [coverUrl!, me.profileImageUrl as string]) {
      const res = await visitor.request.get(url);
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toMatch(/^image\//);
    }
    await visitor.close();
    await screenshot(creator, 'media-cover-and-avatar-1280');
  });

  it('a paid message carries a photo: blurred under its unlock prompt, whole once paid', async () => {
    const files = await makeFiles();
    await creator.goto(`/messages?user=${memberId}`);
    await creator.getByRole('button', { name: 'Attach photos or videos' }).click();
    await dropFiles(creator, files.slice(0, 1));
    await creator.getByText('Ready', { exact: true }).waitFor();
    await creator.getByLabel('Message', { exact: true }).fill('A frame just for you');
    await creator.getByLabel('Price (optional, makes it a paid message)').fill('3.50');
    await creator.setViewportSize({ width: 390, height: 844 });
    expect(await noSidewaysScroll(creator)).toBe(true);
    await screenshot(creator, 'media-paid-message-compose-390');
    await creator.setViewportSize({ width: 1280, height: 900 });
    await creator.getByRole('button', { name: 'Send' }).click();
    await creator.getByTestId('message-content').getByText('A frame just for you').waitFor();
    await creator.getByRole('button', { name: /Open photo/ }).waitFor(); // the sender sees it whole

    const convert = await memberContext.request.post('/api/crypto/convert', {
      headers: { Origin: stack.url },
      data: { cryptoAmount: '20', cryptoType: 'USDC', walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7' },
    });
    expect(convert.status()).toBeLessThan(300);
    await member.goto(`/messages?user=${creatorId}`);
    const unlock = member.getByRole('button', { name: 'Unlock for $3.50' });
    await unlock.waitFor();
    expect(await member.getByTestId('media-preview').count()).toBe(1);
    expect(await member.getByRole('button', { name: /Open photo/ }).count()).toBe(0);
    await screenshot(member, 'media-paid-message-locked');
    for (let i = 0; i < 100; i++) {
      const balance = await (await memberContext.request.get('/api/crypto/balance')).json();
      if (Number(balance.totalUsd) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await unlock.click();
    await member.getByText('Message unlocked!').waitFor();
    await member.getByRole('button', { name: /Open photo/ }).waitFor();
    await member.setViewportSize({ width: 390, height: 844 });
    expect(await noSidewaysScroll(member)).toBe(true);
    await screenshot(member, 'media-paid-message-unlocked-390');
  });
});
