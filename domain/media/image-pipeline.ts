import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
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
  // limitInputPixels refuses a decompression bomb before decoding it; pages: 1 takes a GIF's first frame.
  const input = () => sharp(file, { limitInputPixels: maxPixels, pages: 1 });
  let upright: { width: number; height: number };
  let largest: { data: Buffer; info: OutputInfo };
  try {
    upright = uprightSize(await input().metadata());
    const edges = widthsFor(Math.max(upright.width, upright.height));
    // Decoded once, at the largest size served (JPEG shrink-on-load makes big sources cheap).
    largest = await input()
      .rotate()
      .resize({
        width: edges[edges.length - 1],
        height: edges[edges.length - 1],
        fit: 'inside',
        withoutEnlargement: true,
      })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new ImageUnreadable(error);
  }
  const files: ProcessedImage['files'] = [];
  // Largest first, each smaller one from the one before: bare pixels all the way, so no metadata.
  let source = largest;
  for (const edge of widthsFor(Math.max(upright.width, upright.height)).reverse()) {
    source = await fromRaw(source)
      .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    files.push(
      {
        variant: `w${edge}.webp`,
        // effort 2: a third of the default's encoding time for files a few per cent larger.
        body: await fromRaw(source).webp({ quality: 82, effort: 2 }).toBuffer(),
        contentType: 'image/webp',
      },
      {
        variant: `w${edge}.jpg`,
        body: await fromRaw(source).flatten({ background: '#ffffff' }).jpeg({ quality: 84 }).toBuffer(),
        contentType: 'image/jpeg',
      },
    );
  }
  files.push({ variant: 'preview.webp', body: await blurredPreview(fromRaw(source)), contentType: 'image/webp' });
  return { width: upright.width, height: upright.height, files };
}

const fromRaw = ({ data, info }: { data: Buffer; info: OutputInfo }) =>
  sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });

/** The size once the EXIF orientation is applied (5 to 8 turn the picture a quarter). */
function uprightSize(metadata: Metadata): { width: number; height: number } {
  const width = metadata.width ?? 0;
  const height = metadata.pageHeight ?? metadata.height ?? 0;
  if (!width || !height) throw new Error('no image size');
  return (metadata.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
}

/** Small and heavily blurred: the shapes and colours of the picture, none of its detail. */
export function blurredPreview(image: Sharp): Promise<Buffer> {
  return image
    .resize({ width: PREVIEW_EDGE, height: PREVIEW_EDGE, fit: 'inside' })
    .blur(4)
    .webp({ quality: 40 })
    .toBuffer();
}
