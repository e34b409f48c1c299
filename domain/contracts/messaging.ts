import { z } from 'zod';
import type { MediaAttachment } from './media';
import { mediaIdsSchema } from './posts';
import { text } from './text';

/** HTTP payloads of direct messages (SPEC §3, §5), shared by API and web. */

export const PAID_MESSAGE_LABEL = 'Paid message';

export const sendMessageSchema = z.object({
  receiverId: text({ error: 'Receiver is required' }).trim().min(1, 'Receiver is required').max(100),
  content: text({ error: 'Message is required' })
    .trim()
    .min(1, 'Message cannot be empty')
    .max(5000, 'Message too long'),
  /** USD price of a paid message (creators only), e.g. "4.99". */
  price: z
    .union([z.string(), z.number()])
    .optional()
    .nullable()
    .transform((value) => (value === undefined || value === null || value === '' ? undefined : String(value).trim()))
    .pipe(
      z
        .string()
        .regex(/^\d{1,6}(\.\d{1,2})?$/, 'Price must be an amount like 4.99')
        .optional(),
    )
    .transform((value) => (value === undefined ? undefined : Math.round(Number(value) * 100)))
    .pipe(z.number().int().min(100, 'Price must be at least 1.00').max(99_999_99, 'Price too high').optional()),
  mediaIds: mediaIdsSchema(),
});

export interface ChatUser {
  id: string;
  name: string;
  profileImageUrl: string | null;
  isCreator: boolean;
}

/** A message as the viewer sees it: a locked paid message has no content for its receiver. */
export interface Message {
  id: string;
  senderId: string;
  receiverId: string;
  content: string | null;
  mediaUrl: string | null;
  isPaid: boolean;
  price: string | null;
  isUnlocked: boolean;
  locked: boolean;
  createdAt: string;
  /** Uploaded photos and videos in order (issue 18); a locked message has only blurred previews. */
  media: MediaAttachment[];
  /** Removed by staff (trust and safety): `content` is then the removal notice, without media. */
  removed?: boolean;
}

export interface Conversation {
  user: ChatUser;
  lastMessage: string;
  lastMessageAt: string;
}
