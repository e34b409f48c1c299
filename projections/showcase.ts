import type { Knex } from 'knex';
import type { ShowcaseCreator, ShowcaseImage } from '../domain/contracts/showcase';
import { publicMediaUrl } from '../domain/media/profile-images';
import { IMAGE_WIDTHS, type MediaVariant } from '../domain/media/variants';
import { runningSubscribersSql } from './creator-subscriptions';
import { displayName, isDeactivated } from './users';

/**
 * The landing page's showcase (issue 18): creators with a current cover, most subscribed first,
 * from their public profile media only (profile_media), never a post's or a message's.
 */
type ShowcaseRow = {
  user_id: string;
  first_name: string | null;
  last_name: string | null;
  standing: string;
  suspended_until: Date | null;
  cover_id: string;
  cover: { width: number | null; height: number | null; variants: MediaVariant[] };
  avatar_id: string | null;
  avatar: { width: number | null; height: number | null; variants: MediaVariant[] } | null;
};

/** The WebP variants of a public item as an image slot, `preferred` px wide where it exists. */
function imageOf(mediaId: string, media: ShowcaseRow['cover'] | null, preferred: number): ShowcaseImage | null {
  if (!media?.width || !media.height) return null;
  const widths = IMAGE_WIDTHS.filter((width) => media.variants.includes(`w${width}.webp`));
  if (!widths.length) return null;
  const src = widths.find((width) => width >= preferred) ?? widths[widths.length - 1];
  return {
    src: publicMediaUrl(mediaId, `w${src}.webp`),
    srcSet: widths.map((width) => `${publicMediaUrl(mediaId, `w${width}.webp`)} ${width}w`).join(', '),
    width: media.width,
    height: media.height,
  };
}

const currentMedia = (db: Knex, slot: 'avatar' | 'cover') =>
  db('profile_media as p')
    .join('media as m', 'm.id', 'p.media_id')
    .where({ 'p.slot': slot, 'p.current': true, 'm.status': 'ready' })
    .select(
      'p.owner_id',
      'p.media_id',
      db.raw("json_build_object('width', m.width, 'height', m.height, 'variants', m.variants) AS media"),
    );

export async function showcaseCreators(db: Knex, now: Date, limit: number): Promise<ShowcaseCreator[]> {
  const rows = (await db('creators as c')
    .join('users as u', 'u.id', db.raw('c.user_id::uuid'))
    .join(currentMedia(db, 'cover').as('cv'), 'cv.owner_id', 'c.user_id')
    .leftJoin(currentMedia(db, 'avatar').as('av'), 'av.owner_id', 'c.user_id')
    .whereNot('u.standing', 'banned')
    .select(
      'c.user_id',
      'u.first_name',
      'u.last_name',
      'u.standing',
      'u.suspended_until',
      'cv.media_id as cover_id',
      'cv.media as cover',
      'av.media_id as avatar_id',
      'av.media as avatar',
    )
    .orderByRaw(`${runningSubscribersSql('c.user_id', '?')} DESC`, [now])
    .orderBy([{ column: 'c.registered_at' }, { column: 'c.user_id' }])
    // A few spare rows: a suspended creator or an item without a usable variant is left out below.
    .limit(limit * 2)) as ShowcaseRow[];
  const creators: ShowcaseCreator[] = [];
  for (const row of rows) {
    if (isDeactivated(row, now)) continue;
    const cover = imageOf(row.cover_id, row.cover, 640);
    if (!cover) continue;
    const avatar = row.avatar_id ? imageOf(row.avatar_id, row.avatar, 320) : null;
    creators.push({ id: row.user_id, name: displayName(row, 'Creator'), avatar, cover });
  }
  return creators.slice(0, limit);
}
