import type { Knex } from 'knex';

/**
 * How far processing of an upload has come, for the uploader's progress bar. Not domain state
 * (nothing decides on it, it is not in the log): a small table of its own (`media_progress`,
 * projections/migrations), written by the job runner and read by GET /api/media/:id.
 */
export interface MediaProgress {
  set(mediaId: string, percent: number): Promise<void>;
  get(mediaId: string): Promise<number | null>;
  clear(mediaId: string): Promise<void>;
}

export function postgresMediaProgress(db: Knex): MediaProgress {
  const rows = () => db('media_progress');
  return {
    async set(mediaId, percent) {
      await rows()
        .insert({ media_id: mediaId, percent, updated_at: new Date() })
        .onConflict('media_id')
        .merge(['percent', 'updated_at']);
    },
    async get(mediaId) {
      const row = await rows().where({ media_id: mediaId }).first('percent');
      return row ? Number(row.percent) : null;
    },
    async clear(mediaId) {
      await rows().where({ media_id: mediaId }).delete();
    },
  };
}
