import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type express from 'express';
import {
  RENDERED_QUERIES_ID,
  TIME_ZONE_COOKIE,
  type MemberPageRequest,
  type RenderedMemberPage,
} from '../../domain/contracts/member-pages';

/**
 * A member's first screen as HTML. Home and a creator's page, opened signed in, are rendered by
 * the client's own components on the server (web/src/app/member-page.tsx, built by
 * web/prerender.ts into web/dist/.server) with the data they show, into a frame the build wrote
 * (web/dist/pages/member/<frame>.html). A phone paints the page from the HTML, then the app
 * adopts it with that data instead of asking for it and rendering it itself.
 */

/** The server build of the client (web/src/app/server-entry.ts); the API does not import the client's code. */
interface MemberPageRenderer {
  renderMemberPage(request: MemberPageRequest): Promise<RenderedMemberPage | null>;
}

/** Longer than this and the browser renders the page itself, as it would without this server. */
const RENDER_BUDGET_MS = 1_500;
const SLOTS = { head: '<!--member-head-->', markup: '<!--member-markup-->' }; // web/prerender.ts

const gzipped = promisify(gzip);
const brotlied = promisify(brotliCompress);

/** JSON inside a <script> element: nothing in it can close the element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** The IANA zone in the member's `tz` cookie (set by web/src/main.tsx), when it is one. */
function timeZoneOf(req: express.Request): string | null {
  const prefix = `${TIME_ZONE_COOKIE}=`;
  const raw = (req.headers.cookie ?? '').split(';').find((cookie) => cookie.trim().startsWith(prefix));
  if (!raw) return null;
  try {
    const zone = decodeURIComponent(raw.trim().slice(prefix.length));
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** This server's own address as the request reached it: where the renderer asks the API. */
function ownOrigin(req: express.Request): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

const withinBudget = <T>(work: Promise<T>, budgetMs: number) =>
  Promise.race([work, new Promise<null>((resolve) => setTimeout(() => resolve(null), budgetMs).unref())]);

/**
 * Sends the member's page rendered on the server, or answers false (nothing sent) where the
 * browser should render it: no server build, not a page rendered here, no time zone known yet,
 * no site access, too slow, or a failure (logged).
 */
export function memberPages(
  webRoot: string,
  budgetMs = RENDER_BUDGET_MS,
): (req: express.Request, res: express.Response) => Promise<boolean> {
  const entry = path.join(webRoot, '.server', 'server-entry.cjs');
  let renderer: MemberPageRenderer | null | undefined;
  const load = () => (renderer ??= existsSync(entry) ? (createRequire(__filename)(entry) as MemberPageRenderer) : null);
  // Loaded (a few megabytes of code) once the server is up, not by the first member's request.
  setImmediate(load).unref();
  const frames = new Map<string, string>();
  const frameOf = (name: string) => {
    if (!frames.has(name))
      frames.set(name, readFileSync(path.join(webRoot, 'pages', 'member', `${name}.html`), 'utf8'));
    return frames.get(name)!;
  };
  return async (req, res) => {
    const timeZone = timeZoneOf(req);
    if (!load() || !timeZone) return false;
    try {
      const started = process.hrtime.bigint();
      const request: MemberPageRequest = {
        url: req.originalUrl,
        cookie: req.headers.cookie ?? '',
        origin: ownOrigin(req),
        timeZone,
      };
      const page = await withinBudget(load()!.renderMemberPage(request), budgetMs);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (!page) {
        req.log.debug({ ms }, 'member page left to the browser');
        return false;
      }
      const state = `<script id="${RENDERED_QUERIES_ID}" type="application/json">${scriptJson(page.queries)}</script>`;
      const html = frameOf(page.frame)
        .replace(SLOTS.head, () => page.style + state)
        .replace(SLOTS.markup, () => page.markup);
      await send(req, res, html);
      req.log.debug({ ms, bytes: html.length }, 'member page rendered');
      return true;
    } catch (error) {
      req.log.warn({ err: error }, 'member page render failed; the browser renders it');
      return false;
    }
  };
}

/** The member's own page: compressed for the way to a phone, and never stored by anyone. */
async function send(req: express.Request, res: express.Response, html: string): Promise<void> {
  const encoding = req.acceptsEncodings(['br', 'gzip']);
  res.vary('Accept-Encoding');
  res.setHeader('Cache-Control', 'private, no-store');
  res.type('html');
  if (encoding === 'br') {
    res.setHeader('Content-Encoding', 'br');
    res.send(await brotlied(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
  } else if (encoding === 'gzip') {
    res.setHeader('Content-Encoding', 'gzip');
    res.send(await gzipped(html));
  } else res.send(html);
}
