import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createServer, type Manifest } from 'vite';
import type { PrerenderedTree } from './src/app/prerender-page';

/**
 * Run after `vite build` (npm run build): the public pages as HTML in web/dist/pages, so a
 * visitor's phone paints them before any JavaScript has run; the browser then hydrates the app's
 * pages (web/src/main.tsx), while the landing page stays as it is, driven by a small script
 * (web/src/landing-main.ts). api/http/web-assets.ts sends them to requests
 * without a session cookie. Each page is rendered by the same components, at its own address.
 */
const DIST = path.join(__dirname, 'dist');

interface Page {
  /** web/dist/pages/<name>.html, served for /<name> (index: /). */
  names: string[];
  location: string;
  tree: PrerenderedTree;
  /** The lazily loaded page module, preloaded with the app (the app hydrates once it has it). */
  chunk?: string;
}

const legal = (name: string): Page => ({
  names: [name],
  location: `/${name}`,
  tree: 'app',
  chunk: 'src/features/legal/legal-page.tsx',
});

const PAGES: Page[] = [
  { names: ['index', 'landing'], location: '/', tree: 'landing' },
  { names: ['login'], location: '/login', tree: 'app', chunk: 'src/features/accounts/login-page.tsx' },
  { names: ['register'], location: '/register', tree: 'app', chunk: 'src/features/accounts/register-page.tsx' },
  legal('terms-of-service'),
  legal('privacy-policy'),
  legal('community-guidelines'),
  legal('copyright-policy'),
];

/** A built module's file and the files it statically imports, depth first. */
function filesOf(manifest: Manifest, key: string, files = new Set<string>()): Set<string> {
  const entry = manifest[key];
  if (!entry) throw new Error(`${key} is missing from the build manifest`);
  if (files.has(entry.file)) return files;
  files.add(entry.file);
  for (const imported of entry.imports ?? []) filesOf(manifest, imported, files);
  return files;
}

const preloads = (files: Iterable<string>) =>
  [...files].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');

/**
 * Emotion's style tags, taken out of the markup into one tag for the head. The client's emotion
 * cache adopts them before hydrating (it skips the rules whose ids the tags list), so the markup
 * matches what React renders.
 */
function hoistStyles(rendered: string): { markup: string; style: string } {
  const globals = new Map<string, string>();
  const rules = new Map<string, string>();
  const markup = rendered.replace(
    /<style data-emotion="([^"]+)"[^>]*>([\s\S]*?)<\/style>/g,
    (tag, key: string, css: string) => {
      const [cacheKey, ...ids] = key.split(' ');
      if (cacheKey === 'css') rules.set(ids.join(' '), css);
      else globals.set(key, tag); // `css-global <name>`: a global style, adopted tag by tag
      return '';
    },
  );
  const style = `<style data-emotion="css ${[...rules.keys()].join(' ')}">${[...rules.values()].join('')}</style>`;
  return { markup, style: [...globals.values()].join('') + style };
}

/**
 * index.html with the page's markup and styles; its scripts replaced by the entry that hydrates
 * the page and the files that entry and the page's own chunk import (not the signed-in home
 * page index.html preloads).
 */
function pageHtml(shell: string, manifest: Manifest, page: Page, markup: string, style: string): string {
  const files = filesOf(manifest, page.tree === 'landing' ? 'src/landing-main.ts' : 'index.html');
  if (page.chunk) filesOf(manifest, page.chunk, files);
  const [entry, ...imports] = files;
  // The landing page's own small script loads at once; the app's after the first paint.
  const scripts =
    page.tree === 'landing' ? `<script type="module" crossorigin src="/${entry}"></script>` : appBoot(entry, imports);
  return shell
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<script type="module"[^>]*><\/script>/, scripts)
    .replace('</head>', `${style}${page.tree === 'landing' ? preloads(imports) : ''}</head>`)
    .replace(
      /<div id="root">[\s\S]*?<\/div>\s*<\/div>/, // index.html's loading bar gives way to the page
      `<div id="root" data-prerendered>${page.tree === 'app' ? inertControls(markup) : markup}</div>`,
    );
}

/**
 * The app's modules, loaded by web/public/app-boot.js after the first paint (all at once, from
 * this list), so a phone paints the page (or index.html's loading bar) without waiting for them.
 */
const appBoot = (entry: string, imports: string[]) =>
  `<script defer src="/app-boot.js" data-entry="/${entry}" data-preload="${imports.map((file) => `/${file}`).join(' ')}"></script>`;

/** index.html itself loading the app the same way (the signed-in app, and routes nothing was pre-rendered for). */
function bootingShell(shell: string, manifest: Manifest): string {
  const [entry, ...imports] = filesOf(manifest, 'index.html');
  return shell
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<script type="module"[^>]*><\/script>/, appBoot(entry, imports));
}

/**
 * The app's pre-rendered controls are disabled until React has adopted them (web/src/main.tsx
 * enables each then): typed text would be lost to the form's state, and a click would submit
 * the bare HTML form (its fields in the address).
 */
const inertControls = (markup: string) =>
  markup.replace(/<(input|button|textarea|select)\b(?![^>]*\bdisabled\b)/g, '<$1 disabled data-until-hydrated');

async function main(): Promise<void> {
  const shell = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Manifest;
  const vite = await createServer({
    configFile: path.join(__dirname, 'vite.config.ts'),
    server: { middlewareMode: true, hmr: false },
    appType: 'custom',
    logLevel: 'error',
  });
  try {
    const { prerenderPage } = (await vite.ssrLoadModule(
      '/src/app/prerender-page.tsx',
    )) as typeof import('./src/app/prerender-page');
    mkdirSync(path.join(DIST, 'pages'), { recursive: true });
    writeFileSync(path.join(DIST, 'index.html'), bootingShell(shell, manifest));
    for (const page of PAGES) {
      const { markup, style } = hoistStyles(await prerenderPage(page.tree, page.location));
      const html = pageHtml(shell, manifest, page, markup, style);
      for (const name of page.names) {
        const file = path.join(DIST, 'pages', `${name}.html`);
        writeFileSync(file, html);
        writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(html));
      }
      console.log(`pre-rendered ${page.location}: ${(html.length / 1024).toFixed(1)} kB`);
    }
  } finally {
    await vite.close();
  }
}

// Exit when done: the rendered app leaves its timers behind (the API cache's lifetimes).
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
