import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { replayTwice } from './engine/testing/replay-twice';
import { projectionContext } from './engine/projector';
import { findMedia, mediaInUse, mediaProjector, ownerVault } from './media';
import { profileMediaProjector } from './profile-media';

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
  } as unknown as RecordedEvent;
}

const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
const uploaded = (mediaId: string, kind: 'image' | 'video', minute: number, ownerId = 'c1') =>
  recorded('MediaUploaded', { mediaId, ownerId, kind, mime: `${kind}/x`, bytes: 1000 + minute, at: at(minute) });

/** A history with every event the read model reads: uploads, outcomes, a deletion, attachments. */
const history: RecordedEvent[] = [
  uploaded('m1', 'image', 1),
  uploaded('m2', 'video', 2),
  uploaded('m3', 'image', 3),
  uploaded('m4', 'image', 4),
  uploaded('m5', 'image', 5, 'c2'),
  recorded('MediaProcessed', { mediaId: 'm1', width: 640, height: 480, variants: ['w320.webp'], at: at(6) }),
  recorded('MediaProcessed', {
    mediaId: 'm2',
    width: 1280,
    height: 720,
    durationSeconds: 2.5,
    variants: ['video-1080.mp4', 'video-480.mp4', 'poster.jpg', 'poster-preview.webp'],
    at: at(7),
  }),
  recorded('MediaProcessingFailed', { mediaId: 'm3', reason: 'This image could not be read', at: at(8) }),
  recorded('MediaDeleted', { mediaId: 'm4', at: at(9) }),
  recorded('PostPublished', { postId: 'p1', creatorId: 'c1', title: 't', content: 'c', mediaIds: ['m1', 'm2'] }),
  recorded('PostPublished', { postId: 'p2', creatorId: 'c1', title: 't', content: 'c', mediaUrl: null }),
  recorded('MessageSent', { messageId: 'g1', senderId: 'c2', receiverId: 'u', content: '', mediaIds: ['m5'] }),
];

async function build(events: RecordedEvent[]) {
  await db.schema.dropTableIfExists('media_attachments');
  await db.schema.dropTableIfExists('media');
  await db.schema.dropTableIfExists('profile_media');
  await mediaProjector.createTables(db, 'public');
  // mediaInUse also counts the profile images shown now (their own read model, empty here).
  await profileMediaProjector.createTables(db, 'public');
  await db.transaction(async (trx) => {
    for (const event of events) await mediaProjector.apply(projectionContext(trx, 'public'), event);
  });
}

describe('media read model', () => {
  it('is the same when every event is applied twice', async () => {
    const { once, twice } = await replayTwice(db, mediaProjector, history);
    expect(twice).toEqual(once);
    expect(once.media).toHaveLength(4);
    expect(once.media_attachments).toHaveLength(3);
  });

  it('answers one item, the vault and whether an item is in use', async () => {
    await build(history);
    expect(await findMedia(db, 'm2')).toMatchObject({
      id: 'm2',
      ownerId: 'c1',
      kind: 'video',
      status: 'ready',
      width: 1280,
      height: 720,
      durationSeconds: 2.5,
      bytes: 1002,
      createdAt: at(2),
      variants: ['video-1080.mp4', 'video-480.mp4', 'poster.jpg', 'poster-preview.webp'],
    });
    expect(await findMedia(db, 'm3')).toMatchObject({
      status: 'failed',
      failureReason: 'This image could not be read',
    });
    expect(await findMedia(db, 'm4')).toBeNull();

    const first = await ownerVault(db, 'c1', { limit: 2 });
    expect(first.items.map((i) => i.id)).toEqual(['m3', 'm2']);
    const second = await ownerVault(db, 'c1', { limit: 2, cursor: first.nextCursor! });
    expect(second).toMatchObject({ items: [expect.objectContaining({ id: 'm1' })], nextCursor: null });
    expect((await ownerVault(db, 'c1', { limit: 10, kind: 'image' })).items.map((i) => i.id)).toEqual(['m3', 'm1']);
    expect((await ownerVault(db, 'c1', { limit: 10, cursor: 'not-a-cursor' })).items).toHaveLength(3);

    expect(await mediaInUse(db, 'm1')).toBe(true);
    expect(await mediaInUse(db, 'm5')).toBe(true);
    expect(await mediaInUse(db, 'm3')).toBe(false);
  });
});
