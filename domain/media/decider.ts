import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { MediaEvent } from './events';
import type { MediaKind, MediaVariant } from './variants';

export interface MediaState {
  status: 'none' | 'processing' | 'ready' | 'failed' | 'deleted';
  ownerId: string | null;
  kind: MediaKind | null;
}

export type MediaCommand =
  | { type: 'RecordUpload'; mediaId: string; ownerId: string; kind: MediaKind; mime: string; bytes: number; at: Date }
  | {
      type: 'RecordProcessed';
      mediaId: string;
      width: number;
      height: number;
      durationSeconds?: number;
      variants: MediaVariant[];
      at: Date;
    }
  | { type: 'RecordProcessingFailed'; mediaId: string; reason: string; at: Date }
  /** `inUse`: whether a post or message carries it (the caller looks it up). */
  | { type: 'DeleteMedia'; mediaId: string; actorId: string; inUse: boolean; at: Date };

const NOT_FOUND = 'Media not found';

export const mediaDecider: Decider<MediaCommand, MediaState, MediaEvent> = {
  initialState: { status: 'none', ownerId: null, kind: null },
  evolve(state, event) {
    switch (event.type) {
      case 'MediaUploaded':
        return { status: 'processing', ownerId: event.data.ownerId, kind: event.data.kind };
      case 'MediaProcessed':
        return { ...state, status: 'ready' };
      case 'MediaProcessingFailed':
        return { ...state, status: 'failed' };
      case 'MediaDeleted':
        return { ...state, status: 'deleted' };
    }
  },
  decide(command, state) {
    const at = command.at.toISOString();
    switch (command.type) {
      case 'RecordUpload': {
        if (state.status !== 'none') throw refuse.conflict('This media already exists');
        const { mediaId, ownerId, kind, mime, bytes } = command;
        return [{ type: 'MediaUploaded', data: { mediaId, ownerId, kind, mime, bytes, at } }];
      }
      case 'RecordProcessed': {
        if (state.status === 'none') throw refuse.notFound(NOT_FOUND);
        // A retried job, or one that finished after the item was deleted: nothing to record.
        if (state.status !== 'processing') return [];
        const { mediaId, width, height, durationSeconds, variants } = command;
        const duration = durationSeconds === undefined ? {} : { durationSeconds };
        return [{ type: 'MediaProcessed', data: { mediaId, width, height, ...duration, variants, at } }];
      }
      case 'RecordProcessingFailed': {
        if (state.status === 'none') throw refuse.notFound(NOT_FOUND);
        if (state.status !== 'processing') return [];
        return [{ type: 'MediaProcessingFailed', data: { mediaId: command.mediaId, reason: command.reason, at } }];
      }
      case 'DeleteMedia': {
        // Someone else's media is as unknown as media that never existed.
        if (state.status === 'none' || state.status === 'deleted' || state.ownerId !== command.actorId)
          throw refuse.notFound(NOT_FOUND);
        if (command.inUse)
          throw refuse.conflict(
            'This media is in use (in a post, a message or your profile); remove it from there before deleting it',
            {
              code: 'MEDIA_IN_USE',
            },
          );
        return [{ type: 'MediaDeleted', data: { mediaId: command.mediaId, at } }];
      }
    }
  },
};
