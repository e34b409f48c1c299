import { createHash, createHmac } from 'node:crypto';
import sharp, { type OverlayOptions } from 'sharp';

/**
 * The visible watermark a creator may turn on (issue 18, "beyond the peers"): images served to
 * anyone but their owner carry the creator's page name and a short code naming the viewer, so a
 * leaked picture says who leaked it. The code is an HMAC of the viewer's id (staff map it back:
 * `npm run ops -- watermark-lookup <code>`); it is drawn as text, bottom right and tiled faintly
 * across the picture, and once more as a strip of black and white cells in the bottom-left
 * corner that `readViewerCode` decodes from a served file.
 */

/** Crockford's base32: no I, L, O or U, so a code read off a picture is not misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_BITS = 40;

export interface WatermarkMark {
  pageName: string;
  code: string;
}

/** Eight characters for the viewer: the first 40 bits of an HMAC of the id. */
export function viewerCode(secret: string, viewerId: string): string {
  const digest = createHmac('sha256', secret).update(`watermark-viewer\n${viewerId}`).digest();
  let code = '';
  for (let i = 0; i < CODE_BITS / 5; i++) code += ALPHABET[bitsAt(digest, i * 5, 5)];
  return code;
}

/** A code as someone may type it (lower case, dashes, O for 0, I or L for 1), or null. */
export function normalizeCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return code.length === CODE_BITS / 5 && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

function bitsAt(bytes: Buffer, offset: number, count: number): number {
  let value = 0;
  for (let i = offset; i < offset + count; i++) value = (value << 1) | ((bytes[i >> 3] >> (7 - (i & 7))) & 1);
  return value;
}

const codeBits = (code: string) =>
  [...code].flatMap((char) => {
    const value = ALPHABET.indexOf(char);
    return [4, 3, 2, 1, 0].map((shift) => (value >> shift) & 1);
  });

/** The strip's geometry in a picture of this size: cells of a few pixels, one cell from the corner. */
function stripLayout(width: number, height: number) {
  const cell = Math.max(4, Math.floor(Math.min(width, height) / 96));
  return { cell, left: cell, top: height - 2 * cell, fits: (CODE_BITS + 2) * cell <= width && 3 * cell <= height };
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** The text layer: faint diagonal repeats over the whole picture, a readable label bottom right. */
function textLayer(width: number, height: number, mark: WatermarkMark): Buffer {
  const label = escapeXml(`${mark.pageName} · ${mark.code}`);
  const size = Math.max(11, Math.round(Math.min(width, height) / 24));
  const tile = Math.round(size * 14);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><pattern id="t" width="${tile}" height="${Math.round(tile / 2)}" patternUnits="userSpaceOnUse" patternTransform="rotate(-30)">
    <text x="0" y="${size}" font-family="DejaVu Sans, sans-serif" font-size="${size}" fill="#fff" fill-opacity="0.16">${label}</text>
  </pattern></defs>
  <rect width="100%" height="100%" fill="url(#t)"/>
  <text x="${width - size * 0.6}" y="${height - size * 0.6}" text-anchor="end" font-family="DejaVu Sans, sans-serif"
    font-size="${size}" font-weight="bold" fill="#fff" fill-opacity="0.75" stroke="#000" stroke-opacity="0.45"
    stroke-width="${Math.max(1, size / 14)}" paint-order="stroke">${label}</text>
</svg>`,
  );
}

/** The code as opaque cells (white 1, black 0) between a black and a white guard cell. */
function codeStrip(code: string, cell: number): { input: Buffer; raw: { width: number; height: number; channels: 3 } } {
  const cells = [0, ...codeBits(code), 1];
  const width = cells.length * cell;
  const pixels = Buffer.alloc(width * cell * 3);
  for (let y = 0; y < cell; y++)
    for (let x = 0; x < width; x++)
      pixels.fill(cells[Math.floor(x / cell)] ? 255 : 0, (y * width + x) * 3, (y * width + x + 1) * 3);
  return { input: pixels, raw: { width, height: cell, channels: 3 } };
}

/** The image with its watermark, in the format it came in (WebP or JPEG). */
export async function applyWatermark(image: Buffer, contentType: string, mark: WatermarkMark): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const layout = stripLayout(width, height);
  const layers: OverlayOptions[] = [{ input: textLayer(width, height, mark), top: 0, left: 0 }];
  if (layout.fits) layers.push({ ...codeStrip(mark.code, layout.cell), top: layout.top, left: layout.left });
  const marked = sharp(image).composite(layers);
  return contentType === 'image/webp'
    ? marked.webp({ quality: 82 }).toBuffer()
    : marked.jpeg({ quality: 84, mozjpeg: true }).toBuffer();
}

/** The viewer code in a served picture's corner strip, or null when there is none. */
export async function readViewerCode(image: Buffer): Promise<string | null> {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  const layout = stripLayout(info.width, info.height);
  if (!layout.fits) return null;
  const lit = (index: number) => {
    const x = layout.left + Math.floor((index + 0.5) * layout.cell);
    const y = layout.top + Math.floor(layout.cell / 2);
    const value = data[y * info.width + x];
    return value < 64 ? 0 : value > 191 ? 1 : null;
  };
  const cells = Array.from({ length: CODE_BITS + 2 }, (_, i) => lit(i));
  // Every cell clearly black or white, and the guards in place: a strip, not chance pixels.
  if (cells.includes(null) || cells[0] !== 0 || cells[CODE_BITS + 1] !== 1) return null;
  let code = '';
  for (let c = 0; c < CODE_BITS / 5; c++) {
    let value = 0;
    for (let b = 0; b < 5; b++) value = (value << 1) | cells[1 + c * 5 + b]!;
    code += ALPHABET[value];
  }
  return code;
}

/**
 * Watermarked copies, rendered once per (item, variant, viewer) and kept in memory up to
 * `maxBytes` (least recently used dropped first); viewers asking for the same copy at once wait
 * for one rendering. The key holds the stored object's etag and the page name, so a changed
 * file or name never serves a stale copy.
 */
export interface Watermarks {
  code(viewerId: string): string;
  marked(
    key: { mediaId: string; variant: string; etag: string },
    source: () => Promise<{ body: Buffer; contentType: string }>,
    mark: WatermarkMark,
  ): Promise<{ body: Buffer; etag: string }>;
}

export function createWatermarks(secret: string, maxBytes = 64 * 1024 * 1024): Watermarks {
  const cache = new Map<string, { body: Buffer; etag: string }>();
  const rendering = new Map<string, Promise<{ body: Buffer; etag: string }>>();
  let bytes = 0;

  const remember = (key: string, entry: { body: Buffer; etag: string }) => {
    cache.set(key, entry);
    bytes += entry.body.length;
    for (const [oldest, old] of cache) {
      if (bytes <= maxBytes) break;
      cache.delete(oldest);
      bytes -= old.body.length;
    }
  };

  return {
    code: (viewerId) => viewerCode(secret, viewerId),
    marked({ mediaId, variant, etag }, source, mark) {
      const key = `${mediaId}/${variant}/${etag}/${mark.code}/${mark.pageName}`;
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key); // re-inserted: the Map's order is the recency order
        cache.set(key, hit);
        return Promise.resolve(hit);
      }
      let pending = rendering.get(key);
      if (!pending) {
        pending = (async () => {
          const { body, contentType } = await source();
          const marked = await applyWatermark(body, contentType, mark);
          const tag = createHash('sha256').update(key).digest('base64url').slice(0, 16);
          return { body: marked, etag: `${etag}.w${tag}` };
        })();
        rendering.set(key, pending);
        pending.then(
          (entry) => remember(key, entry),
          () => undefined,
        );
        void pending.finally(() => rendering.delete(key)).catch(() => undefined);
      }
      return pending;
    },
  };
}

/** The watermark's secret, derived from the media URL secret so no other secret needs keeping. */
export const watermarkSecret = (mediaUrlSecret: string) =>
  createHmac('sha256', mediaUrlSecret).update('lively-watermark-v1').digest('base64url');
