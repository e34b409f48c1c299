import { existsSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import type { StackOptions } from '../../ops/stack';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WEB_ROOT = path.resolve(__dirname, '../dist');

/**
 * Browser journeys need Debian's chromium. Without it they are skipped with one loud line,
 * except under CI=true, where a missing browser fails the run.
 */
export function describeInBrowser(name: string, body: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(name, body);
    return;
  }
  if (process.env.CI === 'true') {
    it(`${name}: needs chromium`, () => {
      throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium)`);
    });
    return;
  }
  console.warn(`\n*** BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM} (apt-get install -y chromium) ***\n`);
  it.skip(name, () => undefined);
}

export async function launchBrowser(options: { fakeMedia?: boolean } = {}): Promise<Browser> {
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
  ];
  if (options.fakeMedia) args.push('--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream');
  return chromium.launch({ executablePath: CHROMIUM, args });
}

/** The real product (built web client included) on a fresh database, for one journey file. */
export async function startE2EStack(options: Partial<StackOptions> = {}): Promise<TestStack> {
  if (!existsSync(path.join(WEB_ROOT, 'index.html'))) throw new Error('web/dist is missing: run `npm run build` first');
  return startTestStack({ webRoot: WEB_ROOT, ...options });
}

/** A page whose uncaught errors are printed as they happen, so a failing step says what broke. */
export async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (error) =>
    console.warn(`uncaught in the page at ${page.url()}: ${error.stack ?? error.message}`),
  );
  return page;
}

let screenshotCount = 0;
/** Saves a screenshot under .data/screenshots (for looking at what a journey showed). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.resolve(
    __dirname,
    '../../.data/screenshots',
    `${String(++screenshotCount).padStart(2, '0')}-${name}.png`,
  );
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Waits until the locator's trimmed text equals `expected` (or matches it), failing with what it last saw. */
export async function expectText(locator: Locator, expected: string | RegExp, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = ((await locator.textContent().catch(() => null)) ?? '').trim();
    if (typeof expected === 'string' ? text === expected : expected.test(text)) return;
    if (Date.now() > deadline) throw new Error(`expected ${String(expected)}, saw ${JSON.stringify(text)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const FINISH_TRANSITIONS = '*, *::before, *::after { transition: none !important; animation: none !important; }';

/**
 * axe-core's serious and critical violations on the page as it stands, one readable line each
 * (rule, what it asks, the offending elements' selectors, where); an empty list when there are none.
 */
export async function seriousAxeViolations(page: Page, where: string): Promise<string[]> {
  // Colours are judged as they end, not halfway through a fade or ripple (MUI's transitions are
  // inline styles, which an !important rule overrides): a mid-animation frame is not what users read.
  await page.addStyleTag({ content: FINISH_TRANSITIONS });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  // Legacy mode: the app has no cross-origin frames, and the default mode's blank page per run,
  // where it gathers frames' results, tripled each run's time. Only violations come back.
  const { violations } = await new AxeBuilder({ page })
    .setLegacyMode(true)
    // Label in name (WCAG 2.5.3) is experimental in axe, off unless asked for: a voice-control user
    // says what they see, so every visible word of a control is in its name.
    .options({ resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => {
      const targets = violation.nodes.slice(0, 6).map((node) => node.target.join(' > '));
      const more =
        violation.nodes.length > targets.length ? ` and ${violation.nodes.length - targets.length} more` : '';
      const example = violation.nodes[0]?.any[0]?.message ?? violation.nodes[0]?.failureSummary ?? '';
      return `${where}: ${violation.id} (${violation.impact}: ${violation.help}) at ${targets.join(' | ')}${more}; e.g. ${example}`;
    });
}
