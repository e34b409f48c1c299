/**
 * The names of a media item's stored objects: the one vocabulary shared by the processing
 * pipeline (which writes them) and delivery (which serves them). Everything of one item sits
 * under `media/<mediaId>/`, so deleting an item is one `deletePrefix`.
 */
export type MediaKind = 'image' | 'video';

/** Long edges (px) of an image's variants; each is written as WebP and as a JPEG fallback. */
export const IMAGE_WIDTHS = [320, 640, 1280, 2048] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

export type MediaVariant =
  | 'original'
  | `w${ImageWidth}.webp`
  | `w${ImageWidth}.jpg`
  /** Small, heavily blurred preview: the only variant shown to a viewer who is not entitled. */
  | 'preview.webp'
  | 'video-1080.mp4'
  | 'video-480.mp4'
  | 'poster.jpg'
  /** The blurred poster of a video (same role as preview.webp). */
  | 'poster-preview.webp';

/** Variants anyone who can see the post or message may fetch, entitled or not. */
export const PREVIEW_VARIANTS: readonly MediaVariant[] = ['preview.webp', 'poster-preview.webp'];

export function mediaPrefix(mediaId: string): string {
  return `media/${mediaId}/`;
}

export function mediaKey(mediaId: string, variant: MediaVariant): string {
  return `${mediaPrefix(mediaId)}${variant}`;
}
