import { deciderSpec } from '../shared/testing/decider-spec';
import { mediaDecider, type MediaCommand } from './decider';
import type { MediaEvent } from './events';

const at = new Date('2026-03-01T10:00:00Z');
const uploaded: MediaEvent = {
  type: 'MediaUploaded',
  data: { mediaId: 'm1', ownerId: 'c1', kind: 'image', mime: 'image/jpeg', bytes: 1234, at: at.toISOString() },
};
const processed: MediaEvent = {
  type: 'MediaProcessed',
  data: {
    mediaId: 'm1',
    width: 640,
    height: 480,
    variants: ['w320.webp', 'w320.jpg', 'preview.webp'],
    at: at.toISOString(),
  },
};
const failedEvent: MediaEvent = {
  type: 'MediaProcessingFailed',
  data: { mediaId: 'm1', reason: 'damaged', at: at.toISOString() },
};
const deleted: MediaEvent = { type: 'MediaDeleted', data: { mediaId: 'm1', at: at.toISOString() } };

const upload: MediaCommand = {
  type: 'RecordUpload',
  mediaId: 'm1',
  ownerId: 'c1',
  kind: 'image',
  mime: 'image/jpeg',
  bytes: 1234,
  at,
};
const finish: MediaCommand = {
  type: 'RecordProcessed',
  mediaId: 'm1',
  width: 640,
  height: 480,
  variants: ['w320.webp', 'w320.jpg', 'preview.webp'],
  at,
};
const failProcessing: MediaCommand = { type: 'RecordProcessingFailed', mediaId: 'm1', reason: 'damaged', at };
const remove = (actorId = 'c1', inUse = false): MediaCommand => ({
  type: 'DeleteMedia',
  mediaId: 'm1',
  actorId,
  inUse,
  at,
});

const spec = deciderSpec(mediaDecider);

describe('media decider', () => {
  it('records an upload once', () => {
    spec.given().when(upload).then([uploaded]);
    spec.given([uploaded]).when(upload).thenThrows({ kind: 'conflict' });
    expect(spec.fold([uploaded])).toEqual({ status: 'processing', ownerId: 'c1', kind: 'image' });
  });

  it('records the outcome of processing once: a retried or late job adds nothing', () => {
    spec.given([uploaded]).when(finish).then([processed]);
    spec.given([uploaded]).when(failProcessing).then([failedEvent]);
    spec.given([uploaded, processed]).when(finish).thenNothing();
    spec.given([uploaded, processed]).when(failProcessing).thenNothing();
    spec.given([uploaded, failedEvent]).when(finish).thenNothing();
    spec.given([uploaded, deleted]).when(finish).thenNothing();
    spec.given().when(finish).thenThrows('Media not found');
  });

  it('keeps the duration of a video', () => {
    const video = spec.given([uploaded]).when({ ...finish, durationSeconds: 2.04 }).events[0];
    expect(video.data).toMatchObject({ durationSeconds: 2.04 });
    expect('durationSeconds' in spec.given([uploaded]).when(finish).events[0].data).toBe(false);
  });

  it('lets only the owner delete, and not while a post or message uses it', () => {
    spec.given([uploaded, processed]).when(remove()).then([deleted]);
    spec.given([uploaded, failedEvent]).when(remove()).then([deleted]);
    spec.given([uploaded, processed]).when(remove('someone-else')).thenThrows('Media not found');
    const refusal = spec.given([uploaded, processed]).when(remove('c1', true)).thenThrows({ kind: 'conflict' });
    expect(refusal.message).toMatch(/in use \(in a post, a message or your profile\)/);
    spec.given([uploaded, processed, deleted]).when(remove()).thenThrows('Media not found');
    spec.given().when(remove()).thenThrows('Media not found');
  });
});
