import sharp from 'sharp';
import { applyWatermark, createWatermarks, normalizeCode, readViewerCode, viewerCode } from './watermark';

const SECRET = 'a-watermark-secret-for-tests-0123456789';

/** A photo-like picture: a gradient with noise, so it compresses like a real one. */
async function picture(width: number, height: number, format: 'webp' | 'jpeg'): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const noise = ((x * 7919 + y * 104729) % 41) - 20;
      pixels[i] = Math.max(0, Math.min(255, (x * 255) / width + noise));
      pixels[i + 1] = Math.max(0, Math.min(255, (y * 255) / height + noise));
      pixels[i + 2] = 128 + noise;
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

describe('viewer codes', () => {
  it('are eight unambiguous characters, stable per viewer and secret, different between viewers', () => {
    const code = viewerCode(SECRET, 'viewer-1');
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(viewerCode(SECRET, 'viewer-1')).toBe(code);
    expect(viewerCode(SECRET, 'viewer-2')).not.toBe(code);
    expect(viewerCode(`${SECRET}x`, 'viewer-1')).not.toBe(code);
  });

  it('are read back as typed, with dashes, spaces, lower case and look-alike letters', () => {
    expect(normalizeCode('7k3q-z9ma')).toBe('7K3QZ9MA');
    expect(normalizeCode(' Oil1 ABCD ')).toBe('0111ABCD');
    expect(normalizeCode('7K3QZ9M')).toBeNull();
    expect(normalizeCode('7K3QZ9MU')).toBeNull();
  });
});

describe('applyWatermark', () => {
  it.each([
    ['image/webp', 'webp', 640, 427],
    ['image/jpeg', 'jpeg', 640, 427],
    ['image/webp', 'webp', 320, 480],
    ['image/jpeg', 'jpeg', 2048, 1365],
  ] as const)(
    'marks a %s of %ix%i visibly, keeps its format and size, and carries the code',
    async (type, format, w, h) => {
      const original = await picture(w, h, format);
      const code = viewerCode(SECRET, `viewer-${w}`);
      const marked = await applyWatermark(original, type, { pageName: 'Cora <Films> & Co', code });
      const meta = await sharp(marked).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, w, h]);
      expect(await readViewerCode(marked)).toBe(code);
      expect(await readViewerCode(original)).toBeNull();
      // The label bottom right changes the pixels there, not just the bytes of the file.
      const corner = (image: Buffer) =>
        sharp(image)
          .extract({
            left: Math.round(w * 0.6),
            top: Math.round(h * 0.9),
            width: Math.round(w * 0.35),
            height: Math.round(h * 0.08),
          })
          .greyscale()
          .raw()
          .toBuffer();
      const [before, after] = await Promise.all([corner(original), corner(marked)]);
      const changed = before.reduce((n, value, i) => n + (Math.abs(value - after[i]) > 40 ? 1 : 0), 0);
      expect(changed / before.length).toBeGreaterThan(0.03);
    },
  );
});

describe('createWatermarks', () => {
  const key = { mediaId: 'm1', variant: 'w640.webp', etag: 'e1' };

  it('renders a viewer copy once, answers again from the cache, and makes copies per viewer', async () => {
    const watermarks = createWatermarks(SECRET);
    const original = await picture(640, 427, 'webp');
    let reads = 0;
    const source = async () => {
      reads++;
      return { body: original, contentType: 'image/webp' };
    };
    const mark = (viewer: string) => ({ pageName: 'Cora', code: watermarks.code(viewer) });
    const [first, same] = await Promise.all([
      watermarks.marked(key, source, mark('a')),
      watermarks.marked(key, source, mark('a')),
    ]);
    expect(reads).toBe(1);
    expect(same).toBe(first);
    expect(await watermarks.marked(key, source, mark('a'))).toBe(first);
    expect(reads).toBe(1);
    const other = await watermarks.marked(key, source, mark('b'));
    expect(reads).toBe(2);
    expect(other.etag).not.toBe(first.etag);
    expect(await readViewerCode(other.body)).toBe(watermarks.code('b'));
    // A changed file (another etag) or page name is rendered anew.
    await watermarks.marked({ ...key, etag: 'e2' }, source, mark('a'));
    await watermarks.marked(key, source, { ...mark('a'), pageName: 'Cora Films' });
    expect(reads).toBe(4);
  });

  it('keeps no more than its size, dropping the least recently used', async () => {
    const original = await picture(320, 213, 'jpeg');
    const watermarks = createWatermarks(SECRET, 1);
    let reads = 0;
    const source = async () => {
      reads++;
      return { body: original, contentType: 'image/jpeg' };
    };
    const mark = { pageName: 'Cora', code: watermarks.code('a') };
    await watermarks.marked(key, source, mark);
    await watermarks.marked(key, source, mark);
    expect(reads).toBe(2);
  });
});
