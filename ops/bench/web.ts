import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Flags, Result } from 'lighthouse';
import type { Creator } from '../../domain/contracts/creators';
import { TIME_ZONE_COOKIE } from '../../domain/contracts/member-pages';
import { chromium as playwright } from 'playwright-core';
import { parseArgs } from '../commands/command';
import { DEMO_LOGIN } from '../commands/seed';
import { freePort } from '../net';
import { fmt } from './_load';
import { sleep, startProcess, stopProcesses } from './_servers';

/**
 * Web client benchmark (issue 19): Lighthouse (mobile emulation, simulated throttling) on the
 * landing, login, home and a creator's page of the product started on loopback with the small
 * demo dataset, beside a trivial static page in the same run; then the JavaScript each page
 * loads before the network is idle, in gzip bytes. Signed-in pages are measured with the demo
 * member's session and time-zone cookies in the browser. `--runs N` takes each page's median performance of N runs.
 */
const ROOT = path.resolve(__dirname, '../..');
const WEB = path.join(ROOT, 'web');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TARGET = { performance: 95, accessibility: 95, 'best-practices': 95 } as const;
const CATEGORIES = Object.keys(TARGET) as Array<keyof typeof TARGET>;
const LANDING_JS_TARGET = 150 * 1024;

interface PageRun {
  label: string;
  scores: Record<keyof typeof TARGET, number>;
  scripts: Array<{ url: string; gzip: number; transfer: number }>;
  failing: string[];
  /** Lighthouse's measure of the machine's speed during the run (lower on a busy machine). */
  benchmarkIndex: number;
  /** Each run's performance score and its metrics (ms; CLS unitless), to read against the score curves. */
  runs: Array<{ performance: number; metrics: Record<(typeof METRICS)[number], number> }>;
}

const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
] as const;
const METRIC_LABEL: Record<(typeof METRICS)[number], string> = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'cumulative-layout-shift': 'CLS',
  'speed-index': 'SI',
};

/** The newest modification time under a folder (the client's sources). */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(file) : statSync(file).mtimeMs);
  }
  return latest;
}

function buildIfNeeded(): void {
  const index = path.join(WEB, 'dist/index.html');
  const stale = !existsSync(index) || newest(path.join(WEB, 'src')) > statSync(index).mtimeMs;
  if (!stale) return;
  console.log('building the web client (npm run build)…');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** The product on its own ports and data directory (kept between runs: the demo seed is made once). */
async function startProduct(dataDir: string): Promise<{ baseUrl: string; child: ChildProcess }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    REALTIME_PORT: String(await freePort()),
    METRICS_PORT: String(await freePort()),
    EMBEDDED_POSTGRES_PORT: String(await freePort()),
    LIVELY_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
  const child = await startProcess([tsx, path.join(ROOT, 'ops/start.ts')], env, `${baseUrl}/api/health`);
  return { baseUrl, child };
}

const BASELINE_SERVER = `
const express = require('express');
const app = express();
const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="A trivial page"><link rel="icon" href="data:,"><title>Baseline</title></head><body><main><h1>Baseline</h1><p>A static page.</p></main></body></html>';
app.get('/', (req, res) => res.type('html').send(html));
app.listen(Number(process.env.PORT), '127.0.0.1');
`;

/** The baseline: a trivial static HTML page from an express server of its own. */
async function startBaselinePage(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const env = { PORT: String(port), NODE_PATH: path.join(ROOT, 'node_modules') };
  return { url, child: await startProcess(['-e', BASELINE_SERVER], env, url) };
}

/** Debian's chromium with a DevTools port for Lighthouse, in a throwaway profile. */
async function startChromium(): Promise<{ port: number; child: ChildProcess; profile: string }> {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'lively-bench-web-chromium-'));
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return { port, child, profile };
    await sleep(100);
  }
  throw new Error('chromium did not open its DevTools port');
}

async function signIn(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify(DEMO_LOGIN),
  });
  if (res.status !== 200) throw new Error(`demo login: ${res.status} ${await res.text()}`);
  return (res.headers.getSetCookie().find((c) => c.startsWith('lively.sid=')) ?? '').split(';')[0];
}

/**
 * The browser becomes a returning member's: their session cookie, and the time zone the app
 * told the server on an earlier visit (web/src/main.tsx), in its cookie jar (Lighthouse keeps
 * cookies between runs; a Cookie header of its own would be replaced by the jar's once the
 * app sets one).
 */
async function signInBrowser(port: number, baseUrl: string, sessionCookie: string): Promise<void> {
  const browser = await playwright.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const at = sessionCookie.indexOf('=');
    const [name, value] = [sessionCookie.slice(0, at), sessionCookie.slice(at + 1)];
    await browser.contexts()[0].addCookies([
      { name, value, url: baseUrl, httpOnly: true, sameSite: 'Lax' },
      { name: TIME_ZONE_COOKIE, value: 'UTC', url: baseUrl, sameSite: 'Lax' },
    ]);
  } finally {
    await browser.close();
  }
}

async function firstCreatorId(baseUrl: string, cookie: string): Promise<string> {
  const creators = (await (await fetch(`${baseUrl}/api/creators`, { headers: { cookie } })).json()) as Creator[];
  if (!creators.length) throw new Error('the demo dataset has no creator');
  return creators[0].id;
}

/** gzip bytes of each script the page requested before the network went idle (Lighthouse's records). */
async function scriptsOf(lhr: Result, headers: Record<string, string>): Promise<PageRun['scripts']> {
  const details = lhr.audits['network-requests']?.details as
    { items: Array<{ url: string; resourceType?: string; transferSize?: number }> } | undefined;
  const scripts = (details?.items ?? []).filter((item) => item.resourceType === 'Script');
  return Promise.all(
    scripts.map(async ({ url, transferSize }) => {
      const res = await fetch(url, { headers });
      // A 404 here means web/dist was rebuilt during the run (new hashed names): no figure then.
      if (!res.ok) throw new Error(`${url}: ${res.status}; was the web client rebuilt during the run?`);
      const body = Buffer.from(await res.arrayBuffer());
      return { url, gzip: gzipSync(body).length, transfer: transferSize ?? 0 };
    }),
  );
}

/** One Lighthouse run; a failed trace (it happens now and then under load) is tried again. */
async function lighthouseOnce(label: string, url: string, flags: Flags, attempts = 3): Promise<Result> {
  const { default: lighthouse } = await import('lighthouse');
  const result = await lighthouse(url, flags);
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const error = result.lhr.runtimeError;
  if (!error) return result.lhr;
  if (attempts > 1) return lighthouseOnce(label, url, flags, attempts - 1);
  throw new Error(`${label}: ${error.message}`);
}

async function audit(
  label: string,
  url: string,
  port: number,
  runs: number,
  headers: Record<string, string> = {},
  saveDir?: string,
): Promise<PageRun> {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  };
  const results: Result[] = [];
  for (let i = 0; i < runs; i++) {
    const lhr = await lighthouseOnce(label, url, flags);
    results.push(lhr);
    if (saveDir) writeFileSync(path.join(saveDir, `${label.replace(/\W+/g, '-')}-${i + 1}.json`), JSON.stringify(lhr));
  }
  const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const metricsOf = (lhr: Result) =>
    Object.fromEntries(
      METRICS.map((id) => [id, lhr.audits[id]?.numericValue ?? NaN]),
    ) as PageRun['runs'][number]['metrics'];
  const eachRun = results.map((lhr) => ({ performance: score(lhr, 'performance'), metrics: metricsOf(lhr) }));
  results.sort((a, b) => score(a, 'performance') - score(b, 'performance'));
  const median = results[Math.floor(results.length / 2)];
  const failing = Object.values(median.audits)
    .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
    .filter((a) => a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
    .filter((a) => !a.id.endsWith('-insight')) // the same findings again, in Lighthouse's newer wording
    .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
  return {
    label,
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, score(median, c)])) as PageRun['scores'],
    scripts: await scriptsOf(median, headers),
    failing,
    benchmarkIndex: Math.round(median.environment.benchmarkIndex),
    runs: eachRun,
  };
}

function printScores(pages: PageRun[]): void {
  const pad = (text: string, width: number) => text.padEnd(width);
  console.log(
    `\n${pad('page', 26)}${pad('performance', 13)}${pad('accessibility', 15)}${pad('best-practices', 16)}target  result      machine index`,
  );
  for (const page of pages) {
    const baseline = page.label.startsWith('baseline');
    const pass = CATEGORIES.every((c) => page.scores[c] >= TARGET[c]);
    console.log(
      `${pad(page.label, 26)}${pad(String(page.scores.performance), 13)}${pad(String(page.scores.accessibility), 15)}${pad(String(page.scores['best-practices']), 16)}${pad('>= 95', 8)}${pad(baseline ? '(context)' : pass ? 'PASS' : 'FAIL', 12)}${page.benchmarkIndex}`,
    );
  }
  console.log('\nEach run (performance: metrics):');
  for (const page of pages) {
    const runs = page.runs.map(({ performance, metrics }) => {
      const values = METRICS.map((id) => {
        const value = metrics[id];
        return `${METRIC_LABEL[id]} ${id === 'cumulative-layout-shift' ? value.toFixed(3) : Math.round(value)}`;
      });
      return `${performance} (${values.join(' ')})`;
    });
    console.log(`  ${page.label.padEnd(24)}${runs.join('; ')}`);
  }
  for (const page of pages.filter((p) => p.failing.length))
    console.log(`  ${page.label}: audits below 0.9: ${page.failing.join(', ')}`);
}

function printScripts(pages: PageRun[]): void {
  console.log('\nJavaScript loaded before idle (gzip bytes; transferred bytes as served):');
  for (const page of pages) {
    const gzip = page.scripts.reduce((sum, s) => sum + s.gzip, 0);
    const transfer = page.scripts.reduce((sum, s) => sum + s.transfer, 0);
    const verdict = page.label.startsWith('landing')
      ? ` target <= ${fmt(LANDING_JS_TARGET / 1024)} kB: ${gzip <= LANDING_JS_TARGET ? 'PASS' : 'FAIL'}`
      : '';
    console.log(
      `  ${page.label.padEnd(24)}${fmt(gzip / 1024).padStart(5)} kB gzip in ${page.scripts.length} files (${fmt(transfer / 1024)} kB transferred)${verdict}`,
    );
    if (process.env.BENCH_VERBOSE)
      for (const s of page.scripts)
        console.log(`      ${fmt(s.gzip / 1024).padStart(5)} kB  ${new URL(s.url).pathname}`);
  }
}

export async function run(args: string[]): Promise<void> {
  const { options } = parseArgs(args);
  const runs = Number(options.runs ?? 1);
  const dataDir = path.resolve(String(options['data-dir'] ?? path.join(ROOT, '.data/bench-web')));
  // `--save <dir>`: each run's Lighthouse result as JSON, to read its audits (LCP element, long tasks…).
  const saveDir = options.save ? path.resolve(String(options.save)) : undefined;
  if (saveDir) mkdirSync(saveDir, { recursive: true });
  // `--pages landing,login`: only the pages whose label starts with one of these words.
  const only = options.pages ? String(options.pages).split(',') : null;
  buildIfNeeded();
  const children: ChildProcess[] = [];
  let profile = '';
  try {
    const product = await startProduct(dataDir);
    children.push(product.child);
    const baseline = await startBaselinePage();
    children.push(baseline.child);
    const chromium = await startChromium();
    children.push(chromium.child);
    profile = chromium.profile;
    const cookie = await signIn(product.baseUrl);
    const creatorId = await firstCreatorId(product.baseUrl, cookie);
    const session = { Cookie: cookie };
    console.log(`web benchmark: Lighthouse ${runs > 1 ? `median of ${runs} runs, ` : ''}mobile, simulated throttling`);
    const pages: PageRun[] = [];
    const measure = async (label: string, url: string, headers?: Record<string, string>) => {
      if (only && !only.some((word) => label.startsWith(word))) return;
      process.stdout.write(`  ${label}…\n`);
      pages.push(await audit(label, url, chromium.port, runs, headers, saveDir));
    };
    await measure('baseline: static page', baseline.url);
    await measure('landing (signed out /)', `${product.baseUrl}/`);
    await measure('login', `${product.baseUrl}/login`);
    await signInBrowser(chromium.port, product.baseUrl, cookie);
    await measure('home (demo member)', `${product.baseUrl}/home`, session);
    await measure('creator page', `${product.baseUrl}/creator/${creatorId}`, session);
    console.log(
      `load average while measuring: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    printScores(pages);
    printScripts(pages);
  } finally {
    await stopProcesses(children);
    if (profile) rmSync(profile, { recursive: true, force: true });
  }
}
