import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MediaVariant } from './variants';

/**
 * Signed media URLs: `/api/media/<id>/files/<variant>?exp=<unix seconds>&sig=<HMAC-SHA256>`.
 * The signature covers the item, the variant and the expiry, so a URL works for minutes and
 * names one file only; that lets it sit behind a CDN later. Expiries are rounded up to a
 * step, so one viewer's pages within a few minutes reuse the same URL and the browser's cache.
 */
export type UrlCheck = 'ok' | 'expired' | 'invalid';

export interface MediaUrlSigner {
  url(mediaId: string, variant: MediaVariant, ttlSeconds?: number): string;
  verify(mediaId: string, variant: string, exp: unknown, sig: unknown): UrlCheck;
}

export const DEFAULT_URL_TTL_SECONDS = 10 * 60;
const EXPIRY_STEP_SECONDS = 5 * 60;

export function createMediaUrlSigner(secret: string, now: () => Date): MediaUrlSigner {
  if (secret.length < 32) throw new Error('The media URL secret must be at least 32 characters');
  const sign = (mediaId: string, variant: string, exp: number) =>
    createHmac('sha256', secret).update(`${mediaId}\n${variant}\n${exp}`).digest();
  const nowSeconds = () => Math.floor(now().getTime() / 1000);

  return {
    url(mediaId, variant, ttlSeconds = DEFAULT_URL_TTL_SECONDS) {
      const exp = Math.ceil((nowSeconds() + ttlSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
      const sig = sign(mediaId, variant, exp).toString('base64url');
      return `/api/media/${encodeURIComponent(mediaId)}/files/${variant}?exp=${exp}&sig=${sig}`;
    },

    verify(mediaId, variant, exp, sig) {
      if (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) || typeof sig !== 'string') return 'invalid';
      // Compared as text: base64url's last character has spare bits, so decoding would let
      // several spellings of one signature through.
      const given = Buffer.from(sig);
      const expected = Buffer.from(sign(mediaId, variant, Number(exp)).toString('base64url'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return Number(exp) < nowSeconds() ? 'expired' : 'ok';
    },
  };
}
