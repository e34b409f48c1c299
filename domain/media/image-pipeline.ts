import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { IMAGE_WIDTHS, type ImageWidth, type MediaVariant } from './variants';

/**
 * An uploaded image made into what is served: turned upright by its EXIF orientation, then
 * decoded to bare pixels, so no metadata (EXIF, GPS, XMP, comments) can reach any variant;
 * every long edge of IMAGE_WIDTHS not larger than the source (at least the smallest) in WebP
 * and JPEG; and a small, heavily blurred preview for viewers who are not entitled.
 */

export interface ProcessedImage {
  width: number;
  height: number;
  files: Array<{ variant: MediaVariant; body: Buffer; contentType: string }>;
}

export class ImageUnreadable extends Error {
  constructor(cause: unknown) {
    super('This image could not be read: the file is damaged or in a format we do not support');
    this.name = 'ImageUnreadable';
    this.cause = cause;
  }
}

/** The widths made for a source whose long edge is `longEdge`. */
export function widthsFor(longEdge: number): ImageWidth[] {
  const fitting = IMAGE_WIDTHS.filter((width) => width <= longEdge);
  return fitting.length > 0 ? fitting : [IMAGE_WIDTHS[0]];
}

const PREVIEW_EDGE = 48;

export async function processImage(file: string, maxPixels: number): Promise<ProcessedImage> {
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    // limitInputPixels refuses a decompression bomb before decoding it; pages: 1 takes a GIF's first frame.
    pixels = await sharp(file, { limitInputPixels: maxPixels, pages: 1 })
      .rotate()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new ImageUnreadable(error);
  }
  const { width, height, channels } = pixels.info;
  const source = () => sharp(pixels.data, { raw: { width, height, channels } });
  const files: ProcessedImage['files'] = [];
  for (const edge of widthsFor(Math.max(width, height))) {
    const resized = await source()
      .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const variant = () => sharp(resized.data, { raw: resized.info });
    files.push({
      variant: `w${edge}.webp`,
      body: await variant().webp({ quality: 82 }).toBuffer(),
      contentType: 'image/webp',
    });
    files.push({
      variant: `w${edge}.jpg`,
      body: await variant().flatten({ background: '#ffffff' }).jpeg({ quality: 84, mozjpeg: true }).toBuffer(),
      contentType: 'image/jpeg',
    });
  }
  files.push({ variant: 'preview.webp', body: await blurredPreview(source()), contentType: 'image/webp' });
  return { width, height, files };
}

/** Small and heavily blurred: the shapes and colours of the picture, none of its detail. */
export function blurredPreview(image: Sharp): Promise<Buffer> {
  return image
    .resize({ width: PREVIEW_EDGE, height: PREVIEW_EDGE, fit: 'inside' })
    .blur(4)
    .webp({ quality: 40 })
    .toBuffer();
}
