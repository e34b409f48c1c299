import { z } from 'zod';
import { text } from './text';

/**
 * PUT /api/me/avatar and PUT /api/creators/me/cover (issue 18): one's own ready image, and
 * optionally the rectangle of it to keep, in the image's pixels (its width and height as
 * GET /api/media/:id gives them). Without a crop an avatar is the largest centred square and a
 * cover the whole picture.
 */
const pixels = (name: string, min: number) =>
  z
    .number({ error: `crop.${name} must be a number of pixels` })
    .int(`crop.${name} must be a whole number of pixels`)
    .min(min, `crop.${name} must be at least ${min}`)
    .max(100_000, `crop.${name} is too large`);

export const profileImageSchema = z.object({
  mediaId: text({ error: 'mediaId is required' }).trim().min(1, 'mediaId is required').max(100, 'mediaId too long'),
  crop: z
    .object({ x: pixels('x', 0), y: pixels('y', 0), width: pixels('width', 1), height: pixels('height', 1) })
    .optional(),
});
export type ProfileImageRequest = z.infer<typeof profileImageSchema>;

/** The answer: the new public item made from the crop, and the URL the profile now shows. */
export interface ProfileImageResult {
  /** The new item (in the owner's vault; public). */
  mediaId: string;
  /** Stable, unsigned, cacheable: `/api/media/<mediaId>/public/<variant>`. */
  url: string;
  /** The new item's size in pixels (the crop, at the stored resolution). */
  width: number;
  height: number;
}

/** A chat profile shows at most this many images (POST /api/profile/images refuses one more). */
export const MAX_CHAT_IMAGES = 6;

/** PUT /api/profile/images/order: the chat profile's images by media id, each once, first shown first. */
export const chatImageOrderSchema = z.object({
  mediaIds: z
    .array(text().trim().min(1, 'mediaIds must be media ids').max(100, 'mediaId too long'), {
      error: 'mediaIds must be a list of media ids',
    })
    .max(20, 'Too many media ids'),
});
export type ChatImageOrder = z.infer<typeof chatImageOrderSchema>;

/** The media id in a public profile image URL (`/api/media/<mediaId>/public/<variant>`), or null. */
export function publicMediaIdOf(url: string): string | null {
  const match = /^\/api\/media\/([^/]+)\/public\/[^/]+$/.exec(url);
  return match ? decodeURIComponent(match[1]!) : null;
}
