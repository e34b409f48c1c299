import type { Knex } from 'knex';
import type { MediaItem, MediaKind, MediaStatus } from '../domain/contracts/media';
import type { AccountDeletedData } from '../domain/accounts/events';
import type { RecordedEvent } from '../domain/event-store/port';
import type {
  MediaDeletedData,
  MediaProcessedData,
  MediaProcessingFailedData,
  MediaUploadedData,
} from '../domain/media/events';
import type { MediaVariant } from '../domain/media/variants';
import type { MessageSent } from '../domain/messaging/events';
import type { PostDeleted, PostEdited, PostPublished, PostScheduled } from '../domain/posts/events';
import type { ProjectionContext, Projector } from './engine/projector';
import { isCurrentProfileMedia } from './profile-media';

/**
 * The `media` read model (issue 18): one row per uploaded item with its processing state, for
 * the owner's vault and GET /api/media/:id; and `media_attachments`, which post or message
 * carries which item (from the optional `mediaIds` of PostPublished, PostScheduled, PostEdited
 * and MessageSent; a deleted post lets go of its items), so an item in use is not deleted. Every handler sets absolute values.
 */

/** The media a post or message carries, in order (the field is optional: older events have none). */
type WithMediaIds = { mediaIds?: string[] };

async function attach(
  { table }: ProjectionContext,
  targetKind: 'post' | 'message',
  targetId: string,
  mediaIds: string[] | undefined,
) {
  if (!mediaIds?.length) return;
  const rows = mediaIds.map((mediaId, position) => ({
    media_id: mediaId,
    target_kind: targetKind,
    target_id: targetId,
    position,
  }));
  await table('media_attachments').insert(rows).onConflict(['media_id', 'target_kind', 'target_id']).ignore();
}

async function detachAll({ table }: ProjectionContext, postId: string) {
  await table('media_attachments').where({ target_kind: 'post', target_id: postId }).delete();
}

const handlers: Record<string, (context: ProjectionContext, event: RecordedEvent) => Promise<void>> = {
  async MediaUploaded({ table }, event) {
    const d = event.data as MediaUploadedData;
    await table('media')
      .insert({
        id: d.mediaId,
        owner_id: d.ownerId,
        kind: d.kind,
        mime: d.mime,
        status: 'processing',
        bytes: d.bytes,
        created_at: d.at,
        variants: JSON.stringify([]),
      })
      .onConflict('id')
      .ignore();
  },
  async MediaProcessed({ table }, event) {
    const d = event.data as MediaProcessedData;
    await table('media')
      .where({ id: d.mediaId })
      .update({
        status: 'ready',
        width: d.width,
        height: d.height,
        duration_seconds: d.durationSeconds ?? null,
        variants: JSON.stringify(d.variants),
      });
  },
  async MediaProcessingFailed({ table }, event) {
    const d = event.data as MediaProcessingFailedData;
    await table('media').where({ id: d.mediaId }).update({ status: 'failed', failure_reason: d.reason });
  },
  async MediaDeleted({ table }, event) {
    const d = event.data as MediaDeletedData;
    await table('media').where({ id: d.mediaId }).delete();
  },
  async PostPublished(context, event) {
    const d = event.data as PostPublished['data'] & WithMediaIds;
    await attach(context, 'post', d.postId, d.mediaIds);
  },
  async PostScheduled(context, event) {
    const d = event.data as PostScheduled['data'];
    await attach(context, 'post', d.postId, d.mediaIds);
  },
  // An edit may change the media: the post carries exactly the edited list.
  async PostEdited(context, event) {
    const d = event.data as PostEdited['data'];
    await detachAll(context, d.postId);
    await attach(context, 'post', d.postId, d.mediaIds);
  },
  // A deleted post no longer uses its media (the owner may delete them from the vault).
  async PostDeleted(context, event) {
    await detachAll(context, (event.data as PostDeleted['data']).postId);
  },
  async MessageSent(context, event) {
    const d = event.data as MessageSent['data'] & WithMediaIds;
    await attach(context, 'message', d.messageId, d.mediaIds);
  },
  // Issue 23: a deleted person's items are gone, and nothing carries them (the files are deleted by the command side).
  async AccountDeleted({ table }, event) {
    const { userId } = event.data as AccountDeletedData;
    const owned = table('media').where({ owner_id: userId }).select('id');
    await table('media_attachments').whereIn('media_id', owned).delete();
    await table('media').where({ owner_id: userId }).delete();
  },
};

async function createTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('media', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable();
    t.text('kind').notNullable();
    t.text('mime').notNullable();
    t.text('status').notNullable();
    t.integer('width').nullable();
    t.integer('height').nullable();
    t.double('duration_seconds').nullable();
    t.bigInteger('bytes').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.text('failure_reason').nullable();
    /** The stored variants' names (MediaVariant[]). */
    t.jsonb('variants').notNullable();
    // The vault: an owner's items newest first, optionally of one kind.
    t.index(['owner_id', 'created_at', 'id']);
  });
  await db.schema.withSchema(schema).createTable('media_attachments', (t) => {
    t.text('media_id').notNullable();
    t.text('target_kind').notNullable();
    t.text('target_id').notNullable();
    t.integer('position').notNullable();
    t.primary(['media_id', 'target_kind', 'target_id']);
    // What one post carries (an edit or a deletion lets go of it).
    t.index(['target_kind', 'target_id']);
  });
}

export const mediaProjector: Projector = {
  name: 'media',
  // 3: AccountDeleted (issue 23).
  version: 3,
  tables: ['media', 'media_attachments'],
  eventTypes: Object.keys(handlers),
  createTables,
  async apply(context, event) {
    await handlers[event.type]?.(context, event);
  },
};

// Queries: one item, the owner's vault (keyset paged), whether an item is in use.

export interface MediaRecord extends MediaItem {
  ownerId: string;
  mime: string;
  variants: MediaVariant[];
}

function mediaRecord(row: Record<string, any>): MediaRecord {
  return {
    id: row.id,
    ownerId: row.owner_id,
    kind: row.kind as MediaKind,
    mime: row.mime,
    status: row.status as MediaStatus,
    width: row.width,
    height: row.height,
    ...(row.duration_seconds === null ? {} : { durationSeconds: Number(row.duration_seconds) }),
    bytes: Number(row.bytes),
    createdAt: new Date(row.created_at).toISOString(),
    ...(row.failure_reason === null ? {} : { failureReason: row.failure_reason }),
    variants: row.variants,
  };
}

/** What the client sees of an item (no owner, type or stored names). */
export function mediaItem(record: MediaRecord): MediaItem {
  const { ownerId: _owner, mime: _mime, variants: _variants, ...item } = record;
  return item;
}

export async function findMedia(db: Knex, mediaId: string): Promise<MediaRecord | null> {
  const row = await db('media').where({ id: mediaId }).first();
  return row ? mediaRecord(row) : null;
}

export interface VaultPage {
  items: MediaRecord[];
  /** Pass back as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

const encodeCursor = (record: MediaRecord) => Buffer.from(`${record.createdAt}|${record.id}`).toString('base64url');

function decodeCursor(cursor: string): { createdAt: string; id: string } | null {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  return createdAt && id && !Number.isNaN(Date.parse(createdAt)) ? { createdAt, id } : null;
}

/** An owner's items newest first, `limit` a page, after `cursor` (keyset: stable while items are added). */
export async function ownerVault(
  db: Knex,
  ownerId: string,
  options: { kind?: MediaKind; cursor?: string; limit: number },
): Promise<VaultPage> {
  const query = db('media').where({ owner_id: ownerId });
  if (options.kind) query.andWhere({ kind: options.kind });
  const after = options.cursor ? decodeCursor(options.cursor) : null;
  if (after) query.andWhereRaw('(created_at, id) < (?::timestamptz, ?)', [after.createdAt, after.id]);
  const rows = await query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(options.limit + 1);
  const items = rows.slice(0, options.limit).map(mediaRecord);
  return { items, nextCursor: rows.length > options.limit ? encodeCursor(items[items.length - 1]) : null };
}

/** Whether a post or message carries the item, or a profile shows it (avatar, cover: projections/profile-media.ts). */
export async function mediaInUse(db: Knex, mediaId: string): Promise<boolean> {
  if (await db('media_attachments').where({ media_id: mediaId }).first('media_id')) return true;
  return isCurrentProfileMedia(db, mediaId);
}

/** Items still processing (with their kind and size): their jobs are queued again on start, in case one was lost. */
export async function mediaStillProcessing(db: Knex): Promise<Array<{ id: string; kind: MediaKind; bytes: number }>> {
  const rows = await db('media').where({ status: 'processing' }).select('id', 'kind', 'bytes');
  return rows.map((row) => ({ id: row.id, kind: row.kind, bytes: Number(row.bytes) }));
}
