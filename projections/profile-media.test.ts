import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { projectionContext } from './engine/projector';
import { replayTwice } from './engine/testing/replay-twice';
import { mediaInUse, mediaProjector } from './media';
import { isCurrentProfileMedia, profileMediaProjector, publicMediaFile } from './profile-media';
import { userHandlers } from './users';

let db: Knex;
useTestDatabase((opened) => ({ db } = opened), { poolSize: 2 });

let position = 0;
function recorded(type: string, data: Record<string, unknown>): RecordedEvent {
  position += 1;
  return {
    eventId: `e${position}`,
    type,
    data,
    metadata: { occurredAt: '2026-03-01T10:00:00.000Z' },
    streamId: 'x',
    revision: 0n,
    position: { commit: BigInt(position), prepare: BigInt(position) },
    createdAt: '2026-03-01T10:00:00.000Z',
  } as unknown as RecordedEvent;
}

const at = '2026-03-01T10:00:00.000Z';
const crop = { x: 0, y: 0, width: 10, height: 10 };
const ready = (mediaId: string) => [
  recorded('MediaUploaded', { mediaId, ownerId: 'u1', kind: 'image', mime: 'image/png', bytes: 10, at }),
  recorded('MediaProcessed', { mediaId, width: 10, height: 10, variants: ['w320.webp', 'preview.webp'], at }),
];
const set = (type: 'AvatarSet' | 'CoverSet' | 'ChatProfileImageAdded', mediaId: string) =>
  recorded(type, { userId: 'u1', mediaId, sourceMediaId: 'src', crop, variant: 'w320.webp', at });

/** Two avatars in turn, a cover, two chat images (one taken off), and an upload that never became a profile image. */
const history = [
  ...ready('a1'),
  set('AvatarSet', 'a1'),
  ...ready('a2'),
  set('AvatarSet', 'a2'),
  ...ready('c1'),
  set('CoverSet', 'c1'),
  ...ready('h1'),
  set('ChatProfileImageAdded', 'h1'),
  ...ready('h2'),
  set('ChatProfileImageAdded', 'h2'),
  recorded('ChatProfileImageRemoved', { userId: 'u1', mediaId: 'h1', at }),
  ...ready('private'),
];

async function build() {
  for (const projector of [mediaProjector, profileMediaProjector]) {
    for (const table of projector.tables) await db.schema.dropTableIfExists(table);
    await projector.createTables(db, 'public');
  }
  await db.transaction(async (trx) => {
    for (const event of history)
      for (const projector of [mediaProjector, profileMediaProjector])
        if (projector.eventTypes.includes(event.type)) await projector.apply(projectionContext(trx, 'public'), event);
  });
}

describe('profile media read model', () => {
  it('is the same when every event is applied twice', async () => {
    const { once, twice } = await replayTwice(db, profileMediaProjector, history);
    expect(twice).toEqual(once);
    expect(once.profile_media).toHaveLength(5);
  });

  it('serves profile items to anyone, keeps the current ones from deletion, and other uploads private', async () => {
    await build();
    expect(await publicMediaFile(db, 'a1', 'w320.webp')).toBe(true);
    expect(await publicMediaFile(db, 'c1', 'preview.webp')).toBe(true);
    expect(await publicMediaFile(db, 'c1', 'w2048.webp')).toBe(false);
    expect(await publicMediaFile(db, 'private', 'w320.webp')).toBe(false);
    const current = ['a1', 'a2', 'c1', 'h1', 'h2'].map((id) => isCurrentProfileMedia(db, id));
    expect(await Promise.all(current)).toEqual([false, true, true, false, true]);
    expect([await mediaInUse(db, 'a1'), await mediaInUse(db, 'a2'), await mediaInUse(db, 'c1')]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it("puts the item's public URL in the users read model's avatar and cover fields", () => {
    const user = { id: 'u1', profile_image_url: null, cover_image_url: 'https://old.example/cover.jpg' };
    const withAvatar = userHandlers.AvatarSet(user, set('AvatarSet', 'a2'))!;
    expect(withAvatar.profile_image_url).toBe('/api/media/a2/public/w320.webp');
    const withCover = userHandlers.CoverSet(withAvatar, set('CoverSet', 'c1'))!;
    expect(withCover).toMatchObject({
      profile_image_url: '/api/media/a2/public/w320.webp',
      cover_image_url: '/api/media/c1/public/w320.webp',
    });
  });
});
