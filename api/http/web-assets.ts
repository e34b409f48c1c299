import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler } from 'express';
import { SESSION_COOKIE } from '../../projections/sessions';
import { memberPages } from './member-pages';

/** Files under /assets/ carry a content hash in their name: a new build gives new names. */
const HASHED_MAX_AGE_MS = 365 * 86_400_000;
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * The smallest precompressed copy of a file (`<file>.br`, else `<file>.gz`) the browser accepts, if
 * there is one. Ours decide the order: browsers list gzip first (`gzip, deflate, br, zstd`).
 */
function compressedCopy(req: express.Request, file: string) {
  const encoding = ENCODINGS.find(
    (candidate) => req.acceptsEncodings(candidate.name) === candidate.name && existsSync(file + candidate.suffix),
  );
  return encoding ? { encoding: encoding.name, file: file + encoding.suffix } : null;
}

/**
 * A built script, style or icon of /assets/: rolldown names a chunk shared by several pages after
 * them, joined with `~` (`shared~login-page~home-page-<hash>.js`).
 */
const ASSET_NAME = /^[\w.~-]+\.(js|css|svg)$/;

/**
 * The built web client's files. Hashed assets are cached for a year as immutable; the build
 * writes a brotli and a gzip copy of each script and style beside it (web/vite.config.ts), sent
 * to browsers that accept them, so nothing is compressed per request. Other files (index.html,
 * app-boot.js) are revalidated after an hour at most.
 */
export function webAssets(webRoot: string): express.Router {
  const assets = path.join(webRoot, 'assets');
  const precompressed: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    if (!ASSET_NAME.test(name)) return next();
    const copy = compressedCopy(req, path.join(assets, name));
    res.vary('Accept-Encoding');
    if (!copy) return next();
    res.type(path.extname(name));
    res.setHeader('Content-Encoding', copy.encoding);
    res.sendFile(copy.file, { maxAge: HASHED_MAX_AGE_MS, immutable: true }, (error) => error && next(error));
  };
  const router = express.Router();
  router.use('/assets', precompressed, express.static(assets, { maxAge: HASHED_MAX_AGE_MS, immutable: true }));
  router.use(express.static(webRoot, { index: false, maxAge: '1h' }));
  return router;
}

const hasSessionCookie = (req: express.Request) =>
  (req.headers.cookie ?? '').split(';').some((cookie) => cookie.trim().startsWith(`${SESSION_COOKIE}=`));

/**
 * The page for a client-side route. A request without a session cookie gets the page
 * pre-rendered at build time when there is one (web/prerender.ts writes web/dist/pages/<name>.html
 * for /<name>, index.html for /): painted before any JavaScript runs, then hydrated. A member
 * opening home or a creator's page gets it rendered for them (./member-pages.ts). Everyone else
 * gets the app's index.html, which renders in the browser.
 */
export function webPage(webRoot: string, memberPageBudgetMs?: number): RequestHandler {
  const index = path.join(webRoot, 'index.html');
  const memberPage = memberPages(webRoot, memberPageBudgetMs);
  return async (req, res, next) => {
    res.vary('Cookie');
    const name = req.path === '/' ? 'index' : req.path.slice(1);
    const page = path.join(webRoot, 'pages', `${name}.html`);
    if (hasSessionCookie(req) && (await memberPage(req, res))) return;
    if (hasSessionCookie(req) || !/^[a-z-]+$/.test(name) || !existsSync(page)) {
      return res.sendFile(index, (error) => error && next(error));
    }
    const copy = compressedCopy(req, page);
    res.vary('Accept-Encoding');
    res.type('html');
    if (copy) res.setHeader('Content-Encoding', copy.encoding);
    res.sendFile(copy?.file ?? page, (error) => error && next(error));
  };
}
