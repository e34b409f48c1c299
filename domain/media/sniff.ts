import { open } from 'node:fs/promises';
import sharp from 'sharp';
import type { MediaKind } from './variants';

/**
 * A file's type, decided by its content alone: the leading bytes name the container, and for
 * images sharp must read the header too (a file that only starts like a JPEG is not one). Never
 * by the file name or the client's Content-Type.
 */
export interface Sniffed {
  kind: MediaKind;
  mime: string;
}

const ascii = (head: Buffer, start: number, end: number) => head.subarray(start, end).toString('latin1');

/** ISO base media (`ftyp` box) brands: HEIF/AVIF stills, MP4, QuickTime. */
function isoBrand(brand: string): Sniffed | null {
  if (['avif', 'avis'].includes(brand)) return { kind: 'image', mime: 'image/avif' };
  if (['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1'].includes(brand))
    return { kind: 'image', mime: 'image/heic' };
  if (brand === 'qt  ') return { kind: 'video', mime: 'video/quicktime' };
  if (/^(isom|iso\d|mp4\d|avc1|M4V |M4VP|dash|mmp4|f4v )$/.test(brand)) return { kind: 'video', mime: 'video/mp4' };
  return null;
}

/** The type the first bytes (at least 16) announce, or null for anything we do not take. */
export function sniffHead(head: Buffer): Sniffed | null {
  if (head.length < 12) return null;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { kind: 'image', mime: 'image/jpeg' };
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { kind: 'image', mime: 'image/png' };
  if (['GIF87a', 'GIF89a'].includes(ascii(head, 0, 6))) return { kind: 'image', mime: 'image/gif' };
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return { kind: 'image', mime: 'image/webp' };
  if (ascii(head, 4, 8) === 'ftyp') return isoBrand(ascii(head, 8, 12));
  // EBML header: Matroska or WebM (ffprobe tells them apart when processing).
  if (head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) return { kind: 'video', mime: 'video/webm' };
  return null;
}

export async function readHead(file: string, length = 64): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const SHARP_FORMAT: Record<string, string[]> = {
  'image/jpeg': ['jpeg'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'image/avif': ['heif', 'avif'],
  'image/heic': ['heif'],
};

/** An image's size as its header gives it (nothing is decoded), or null when sharp cannot read it. */
export async function imageHeader(file: string, mime: string): Promise<{ width: number; height: number } | null> {
  try {
    // No pixel limit here: the header alone is read, and the caller compares the size with its own.
    const metadata = await sharp(file, { limitInputPixels: false }).metadata();
    if (!SHARP_FORMAT[mime]?.includes(metadata.format ?? '') || !metadata.width || !metadata.height) return null;
    const height = metadata.pageHeight ?? metadata.height;
    return { width: metadata.width, height };
  } catch {
    return null;
  }
}
