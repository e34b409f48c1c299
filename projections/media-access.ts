import type { Knex } from 'knex';
import type { MediaAttachment, MediaKind } from '../domain/contracts/media';
import { IMAGE_WIDTHS, PREVIEW_VARIANTS, type MediaVariant } from '../domain/media/variants';
import { preparedQuery } from './engine/database';
import { hashSessionToken } from './sessions';
import { displayName, isDeactivated, isUserId, type UserRow } from './users';

/**
 * Who may fetch which of a media item's files, and how an attached item looks to a viewer.
 * Reads the media read models (`media`, `media_attachments`, projections/media.ts) with the
 * posts, subscriptions and messages they are attached to.
 */

/** What signs a media URL (domain/media/signed-url.ts, `ports.mediaUrls`). */
export interface MediaLinks {
  url(mediaId: string, variant: MediaVariant, ttlSeconds?: number): string;
}

/** An attached item as the posts and messages queries read it (a json row of the join). */
export interface AttachedMedia {
  id: string;
  kind: MediaKind;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  variants: MediaVariant[];
}

/**
 * SQL of a json array of the items whose ids are in the jsonb array `mediaIdsSql` (a post's or
 * message's `media_ids`), in that order: one sub-select by primary key in the posts and messages
 * queries, so a feed page stays one round trip, and nothing at all for a post without media.
 */
export function attachedMediaSql(mediaIdsSql: string): string {
  return `COALESCE((SELECT json_agg(json_build_object('id', mi.id, 'kind', mi.kind, 'width', mi.width,
      'height', mi.height, 'durationSeconds', mi.duration_seconds, 'variants', mi.variants) ORDER BY ids.position)
    FROM jsonb_array_elements_text(${mediaIdsSql}) WITH ORDINALITY ids(id, position)
    JOIN media mi ON mi.id = ids.id), '[]'::json)`;
}

/** The largest image variant made (WebP), or the best video rendition. */
function fullVariant(item: AttachedMedia): MediaVariant | undefined {
  const has = (variant: MediaVariant) => item.variants.includes(variant);
  if (item.kind === 'video') return (['video-1080.mp4', 'video-480.mp4'] as const).find(has);
  return [...IMAGE_WIDTHS]
    .reverse()
    .map((width) => `w${width}.webp` as MediaVariant)
    .find(has);
}

/** A video plays for its whole length on one URL: it outlives the default expiry when needed. */
function ttlFor(item: AttachedMedia): number | undefined {
  return item.durationSeconds ? Math.ceil(item.durationSeconds) + 10 * 60 : undefined;
}

/** An attached item as the client sees it: full-size URLs only where the viewer is entitled. */
export function attachmentView(item: AttachedMedia, entitled: boolean, links: MediaLinks): MediaAttachment {
  const previewVariant = item.kind === 'video' ? 'poster-preview.webp' : 'preview.webp';
  const full = entitled ? fullVariant(item) : undefined;
  return {
    id: item.id,
    kind: item.kind,
    width: item.width ?? 0,
    height: item.height ?? 0,
    ...(item.durationSeconds === null ? {} : { durationSeconds: Number(item.durationSeconds) }),
    previewUrl: links.url(item.id, previewVariant),
    ...(full ? { url: links.url(item.id, full, ttlFor(item)) } : {}),
    ...(entitled && item.kind === 'video' && item.variants.includes('poster.jpg')
      ? { posterUrl: links.url(item.id, 'poster.jpg') }
      : {}),
  };
}

export const attachmentViews = (items: AttachedMedia[], entitled: boolean, links: MediaLinks) =>
  items.map((item) => attachmentView(item, entitled, links));

/** Items by id in the given order (for a view answered from the write side); unknown ids left out. */
export async function mediaByIds(db: Knex, ids: string[]): Promise<AttachedMedia[]> {
  if (ids.length === 0) return [];
  const rows = await db('media')
    .whereIn('id', ids)
    .select('id', 'kind', 'width', 'height', 'duration_seconds', 'variants');
  const byId = new Map(
    rows.map((row) => [
      row.id as string,
      { ...row, durationSeconds: row.duration_seconds, duration_seconds: undefined } as AttachedMedia,
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Why media ids cannot go on the owner's post or message, or null when they all can: each must
 * be the owner's own item, processed and ready.
 */
export async function unusableMedia(db: Knex, ownerId: string, ids: string[]): Promise<string | null> {
  if (ids.length === 0) return null;
  const rows: Array<{ id: string; owner_id: string; status: string }> = await db('media')
    .whereIn('id', ids)
    .select('id', 'owner_id', 'status');
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const id of ids) {
    const row = byId.get(id);
    if (!row || row.owner_id !== ownerId) return `Media ${id} is not in your media library`;
    if (row.status === 'processing') return `Media ${id} is still processing; try again when it is ready`;
    if (row.status !== 'ready') return `Media ${id} failed to process and cannot be attached`;
  }
  return null;
}

export type MediaFileAccess = 'full' | 'preview' | 'none';

/**
 * One statement with a generic plan (prepared once per connection), run per file: it resolves
 * the session cookie and the viewer's entitlement together, so a file costs one round trip.
 */
const MEDIA_FILE_ACCESS = `WITH viewer AS (
       SELECT s.user_id AS id, u.role, u.standing, u.suspended_until
       FROM http_sessions s LEFT JOIN users u ON u.id = s.user_id::uuid
       WHERE s.id = $1 AND s.expires_at > now())
     SELECT v.id AS viewer_id, v.standing, v.suspended_until, m.variants, m.owner_id = v.id AS owner,
       COALESCE(v.role = 'admin', false) AS staff,
       EXISTS (SELECT 1 FROM media_attachments a JOIN posts p ON p.id = a.target_id
         WHERE a.media_id = m.id AND a.target_kind = 'post' AND (p.is_public OR p.creator_id = v.id
           OR EXISTS (SELECT 1 FROM creator_subscriptions s
             WHERE s.subscriber_id = v.id AND s.creator_id = p.creator_id AND s.end_date > $3))) AS post_full,
       EXISTS (SELECT 1 FROM media_attachments a JOIN posts p ON p.id = a.target_id
         WHERE a.media_id = m.id AND a.target_kind = 'post') AS post_seen,
       EXISTS (SELECT 1 FROM media_attachments a JOIN messages g ON g.id = a.target_id
         WHERE a.media_id = m.id AND a.target_kind = 'message' AND (g.sender_id = v.id
           OR (g.receiver_id = v.id AND (NOT g.is_paid OR g.is_unlocked)))) AS message_full,
       EXISTS (SELECT 1 FROM media_attachments a JOIN messages g ON g.id = a.target_id
         WHERE a.media_id = m.id AND a.target_kind = 'message' AND v.id IN (g.sender_id, g.receiver_id)) AS message_seen,
       c.watermark_enabled AS watermark, u.first_name, u.last_name
     FROM viewer v LEFT JOIN media m ON m.id = $2 AND m.status = 'ready'
       LEFT JOIN creators c ON c.user_id = m.owner_id
       LEFT JOIN users u ON c.watermark_enabled AND u.id = m.owner_id::uuid`;

type GrantRow = {
  viewer_id: string;
  variants: string[] | null;
  owner: boolean;
  staff: boolean;
  watermark: boolean | null;
} & Record<'post_full' | 'post_seen' | 'message_full' | 'message_seen', boolean> &
  Pick<UserRow, 'first_name' | 'last_name'> & { standing: string | null; suspended_until: Date | null };

/**
 * The access, and the owner's page name when the owner has the viewer watermark on and the
 * viewer is someone else (their images are then served marked, domain/media/watermark.ts).
 */
export interface MediaFileGrant {
  viewerId: string;
  access: MediaFileAccess;
  watermarkPageName: string | null;
}

/**
 * What the viewer behind a session cookie may fetch of an item: `full` (every variant) for its
 * owner, finance staff, a public post's readers, a locked post's subscribers and the parties of
 * a free or unlocked message; `preview` (the blurred variants) for anyone else who may see the
 * post (any member) or message (its two parties). 'signed-out' without a live session of an
 * active account; null when the item (or that variant) does not exist.
 */
export async function mediaFileAccess(
  db: Knex,
  now: Date,
  sessionToken: string | undefined,
  mediaId: string,
  variant: string,
): Promise<MediaFileGrant | 'signed-out' | null> {
  if (!sessionToken || sessionToken.length > 200) return 'signed-out';
  const [row] = await preparedQuery<GrantRow>(db, 'media-file-access', MEDIA_FILE_ACCESS, [
    hashSessionToken(sessionToken),
    isUserId(mediaId) ? mediaId : NO_SUCH_MEDIA,
    now,
  ]);
  if (!row || isDeactivated(row, now)) return 'signed-out';
  if (!row.variants?.includes(variant)) return null;
  const access: MediaFileAccess =
    row.owner || row.staff || row.post_full || row.message_full
      ? 'full'
      : row.post_seen || row.message_seen
        ? 'preview'
        : 'none';
  return {
    viewerId: row.viewer_id,
    access,
    watermarkPageName: row.watermark && !row.owner ? displayName(row, 'Creator') : null,
  };
}

/** A media id no item has: a malformed id still resolves the session (a 404, not a 401, then). */
const NO_SUCH_MEDIA = '00000000-0000-0000-0000-000000000000';

export const isPreviewVariant = (variant: string) => (PREVIEW_VARIANTS as readonly string[]).includes(variant);
