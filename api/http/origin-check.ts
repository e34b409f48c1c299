import type { RequestHandler } from 'express';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Mutating calls must come from the site's own pages: their Origin must be an allowed origin,
 * or (none configured) the origin the request was addressed to. Anything else is a 403.
 */
export function originCheck(allowedOrigins: string[]): RequestHandler {
  return (req, res, next) => {
    if (SAFE.has(req.method)) return next();
    const origin = req.get('Origin');
    const own = `${req.protocol}://${req.get('Host')}`;
    const allowed = allowedOrigins.length > 0 ? allowedOrigins.includes(origin ?? '') : origin === own;
    if (allowed) return next();
    res.status(403).json({ error: 'Cross-origin request refused', code: 'BAD_ORIGIN' });
  };
}
