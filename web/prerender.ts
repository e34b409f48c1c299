import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build, type Manifest } from 'vite';
import { hoistStyles, inertControls } from './src/app/page-html';

/**
 * Run after `vite build` (npm run build). First the server build of the client
 * (web/src/app/server-entry.ts, into web/dist/.server, which express never serves: a dot
 * directory). With it:
 * - the public pages as HTML in web/dist/pages, so a visitor's phone paints them before any
 *   JavaScript has run; the browser then hydrates the app's pages (web/src/main.tsx), while the
 *   landing page stays as it is, driven by a small script (web/src/landing-main.ts).
 *   api/http/web-assets.ts sends them to requests without a session cookie. Each page is
 *   rendered by the same components, at its own address.
 * - the frames of the members' pages the API server renders per request
 *   (web/dist/pages/member/<name>.html, api/http/member-pages.ts): everything but the page's
 *   markup, styles and data, which it fills in.
 */
const DIST = path.join(__dirname, 'dist');
const SERVER_BUILD = path.join(DIST, '.server');

type PrerenderedTree = 'landing' | 'app';

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

/**
 * The frames of the members' pages (web/src/app/member-page.tsx MEMBER_PAGES names them): the
 * page's chunk and the top bar's are fetched with the app, since adopting the page needs both.
 */
const MEMBER_FRAMES: Record<string, string[]> = {
  home: ['src/features/home/home-page.tsx', 'src/components/top-nav.tsx'],
  creator: ['src/features/creators/creator-profile-page.tsx', 'src/components/top-nav.tsx'],
};

/** Where a member's page goes into its frame (api/http/member-pages.ts fills them). */
const MEMBER_SLOTS = { head: '<!--member-head-->', markup: '<!--member-markup-->' };

/** A built module's file and the files it statically imports, depth first. */
function filesOf(manifest: Manifest, key: string, files = new Set<string>()): Set<string> {
  const entry = manifest[key];
  if (!entry) throw new Error(`${key} is missing from the build manifest`);
  if (files.has(entry.file)) return files;
  files.add(entry.file);
  for (const imported of entry.imports ?? []) filesOf(manifest, imported, files);
  return files;
}

/**
 * The app entry's files: its own, what it imports, and the modules it imports dynamically to
 * evaluate them in tasks of their own (web/src/main.tsx), which every app page needs.
 */
function appFiles(manifest: Manifest): Set<string> {
  const files = filesOf(manifest, 'index.html');
  for (const stage of manifest['index.html']!.dynamicImports ?? []) filesOf(manifest, stage, files);
  return files;
}

const preloads = (files: Iterable<string>) =>
  [...files].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('');

/**
 * index.html with the page's markup and head; its scripts replaced by the entry that hydrates
 * the page and the files that entry and the page's own chunks import.
 */
function pageHtml(
  shell: string,
  manifest: Manifest,
  tree: PrerenderedTree,
  chunks: string[],
  markup: string,
  head: string,
) {
  const files = tree === 'landing' ? filesOf(manifest, 'src/landing-main.ts') : appFiles(manifest);
  for (const chunk of chunks) filesOf(manifest, chunk, files);
  const [entry, ...imports] = files;
  // The landing page's own small script loads at once; the app's after the first paint.
  const scripts =
    tree === 'landing' ? `<script type="module" crossorigin src="/${entry}"></script>` : appBoot(entry, imports);
  return shell
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<script type="module"[^>]*><\/script>/, scripts)
    .replace('</head>', `${head}${tree === 'landing' ? preloads(imports) : ''}</head>`)
    .replace(
      /<div id="root">[\s\S]*?<\/div>\s*<\/div>/, // index.html's loading bar gives way to the page
      `<div id="root" data-prerendered>${markup}</div>`,
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
  const [entry, ...imports] = appFiles(manifest);
  return shell
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<script type="module"[^>]*><\/script>/, appBoot(entry, imports));
}

/** The client for node, one CommonJS file with its dependencies, React in its production build. */
async function buildForServer(): Promise<typeof import('./src/app/server-entry')> {
  await build({
    configFile: path.join(__dirname, 'vite.config.ts'),
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    ssr: { noExternal: true, target: 'node' },
    build: {
      ssr: 'src/app/server-entry.ts',
      outDir: SERVER_BUILD,
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
      minify: false,
      rollupOptions: {
        // One file: the browser's lazy pages are all needed here, and statically too (member-page.tsx).
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
        onwarn(warning, warn) {
          if (warning.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') warn(warning);
        },
      },
    },
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the file was just built
  return require(path.join(SERVER_BUILD, 'server-entry.cjs')) as typeof import('./src/app/server-entry');
}

function writePage(file: string, html: string): void {
  writeFileSync(file, html);
  writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
  writeFileSync(`${file}.br`, brotliCompressSync(html));
}

async function main(): Promise<void> {
  const shell = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Manifest;
  const { prerenderPage } = await buildForServer();
  mkdirSync(path.join(DIST, 'pages', 'member'), { recursive: true });
  writeFileSync(path.join(DIST, 'index.html'), bootingShell(shell, manifest));
  for (const page of PAGES) {
    const { markup, style } = hoistStyles(await prerenderPage(page.tree, page.location));
    const body = page.tree === 'app' ? inertControls(markup) : markup;
    const html = pageHtml(shell, manifest, page.tree, page.chunk ? [page.chunk] : [], body, style);
    for (const name of page.names) writePage(path.join(DIST, 'pages', `${name}.html`), html);
    console.log(`pre-rendered ${page.location}: ${(html.length / 1024).toFixed(1)} kB`);
  }
  for (const [name, chunks] of Object.entries(MEMBER_FRAMES)) {
    const frame = pageHtml(shell, manifest, 'app', chunks, MEMBER_SLOTS.markup, MEMBER_SLOTS.head);
    writeFileSync(path.join(DIST, 'pages', 'member', `${name}.html`), frame);
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
