import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler } from 'express';

/** Files under /assets/ carry a content hash in their name: a new build gives new names. */
const HASHED_MAX_AGE_MS = 365 * 86_400_000;
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * The built web client's files. Hashed assets are cached for a year as immutable; the build
 * writes a brotli and a gzip copy of each script and style beside it (web/vite.config.ts), sent
 * to browsers that accept them, so nothing is compressed per request. Other files (index.html,
 * theme-init.js) are revalidated after an hour at most.
 */
export function webAssets(webRoot: string): express.Router {
  const assets = path.join(webRoot, 'assets');
  const precompressed: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    if (!/^[\w.-]+\.(js|css|svg)$/.test(name)) return next();
    const accepted = req.acceptsEncodings(ENCODINGS.map((encoding) => encoding.name));
    const encoding = ENCODINGS.find((candidate) => candidate.name === accepted);
    const file = encoding && path.join(assets, name + encoding.suffix);
    res.vary('Accept-Encoding');
    if (!encoding || !file || !existsSync(file)) return next();
    res.type(path.extname(name));
    res.setHeader('Content-Encoding', encoding.name);
    res.sendFile(file, { maxAge: HASHED_MAX_AGE_MS, immutable: true }, (error) => error && next(error));
  };
  const router = express.Router();
  router.use('/assets', precompressed, express.static(assets, { maxAge: HASHED_MAX_AGE_MS, immutable: true }));
  router.use(express.static(webRoot, { index: false, maxAge: '1h' }));
  return router;
}
