import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { MAX_CHAT_IMAGES } from '../contracts/profile-media';
import type { EventStore } from '../event-store/port';
import { handleCommand, loadState, type CommandContext, type Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { newId } from '../shared/ids';
import { mediaDecider, type MediaState } from './decider';
import { mediaStream, type MediaEvent } from './events';
import { processImage } from './image-pipeline';
import type { MediaStorage } from './storage';
import { IMAGE_WIDTHS, mediaKey, type MediaVariant } from './variants';

/**
 * Avatars and covers made from one's own uploaded image (issue 18). The chosen rectangle is cut
 * from the item's largest stored variant and made into a new item of its own (the same variants
 * as any image), which the AvatarSet or CoverSet event marks public: profile images are seen by
 * everyone, signed out too, so they are served at stable, long-cacheable URLs (`publicMediaUrl`)
 * while the uploaded item stays private. Done at once, not as a job: the source is at most
 * 2048 px on its long edge, so the cut and its variants take a fraction of a second.
 */

/** `chat`: one of the Lively Chat profile's images (up to MAX_CHAT_IMAGES, added and removed one by one). */
export type ProfileImageSlot = 'avatar' | 'cover' | 'chat';

/** A rectangle in the source image's pixels (its upright width and height, as GET /api/media/:id says). */
export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ProfileImageSetData {
  userId: string;
  /** The new, public item made from the crop. */
  mediaId: string;
  sourceMediaId: string;
  crop: CropRect;
  /** The variant of `mediaId` the profile shows. */
  variant: MediaVariant;
  at: string;
}

export type ProfileImageEvent =
  | { type: 'AvatarSet'; data: ProfileImageSetData }
  | { type: 'CoverSet'; data: ProfileImageSetData }
  | { type: 'ChatProfileImageAdded'; data: ProfileImageSetData }
  | { type: 'ChatProfileImageRemoved'; data: { userId: string; mediaId: string; at: string } }
  /** The chat profile's images in a new order: every one of them, each once, first shown first. */
  | { type: 'ChatProfileImagesReordered'; data: { userId: string; mediaIds: string[]; at: string } };

export const profileImagesStream = (userId: string) => `profile-images-${userId}`;

/** Where a public item's files are served to anyone: no signature, cacheable for a year (they never change). */
export const publicMediaPrefix = (mediaId: string) => `/api/media/${encodeURIComponent(mediaId)}/public/`;
export const publicMediaUrl = (mediaId: string, variant: MediaVariant) => `${publicMediaPrefix(mediaId)}${variant}`;

const EVENT_OF = { avatar: 'AvatarSet', cover: 'CoverSet', chat: 'ChatProfileImageAdded' } as const;

type ProfileImageCommand =
  | ({ type: 'SetProfileImage'; slot: ProfileImageSlot } & ProfileImageSetData)
  | { type: 'RemoveChatProfileImage'; userId: string; mediaId: string; at: string }
  | { type: 'ReorderChatProfileImages'; userId: string; mediaIds: string[]; at: string };

/** The stream records the changes; its state is the chat profile's images (avatar and cover are replaced whole). */
const profileImagesDecider: Decider<ProfileImageCommand, { chatImages: string[] }, ProfileImageEvent> = {
  initialState: { chatImages: [] },
  evolve(state, event) {
    if (event.type === 'ChatProfileImageAdded') return { chatImages: [...state.chatImages, event.data.mediaId] };
    if (event.type === 'ChatProfileImageRemoved')
      return { chatImages: state.chatImages.filter((id) => id !== event.data.mediaId) };
    if (event.type === 'ChatProfileImagesReordered') return { chatImages: event.data.mediaIds };
    return state;
  },
  decide(command, state) {
    if (command.type === 'RemoveChatProfileImage') {
      if (!state.chatImages.includes(command.mediaId)) throw refuse.notFound('This image is not on your chat profile');
      const { userId, mediaId, at } = command;
      return [{ type: 'ChatProfileImageRemoved', data: { userId, mediaId, at } }];
    }
    if (command.type === 'ReorderChatProfileImages') {
      refuseOtherImages(state, command.mediaIds);
      if (command.mediaIds.every((id, index) => state.chatImages[index] === id)) return [];
      const { userId, mediaIds, at } = command;
      return [{ type: 'ChatProfileImagesReordered', data: { userId, mediaIds, at } }];
    }
    const { type: _type, slot, ...data } = command;
    if (slot === 'chat') refuseFullChatProfile(state);
    return [{ type: EVENT_OF[slot], data }];
  },
};

function refuseFullChatProfile(state: { chatImages: string[] }) {
  if (state.chatImages.length >= MAX_CHAT_IMAGES)
    throw refuse.unprocessable(`A chat profile has at most ${MAX_CHAT_IMAGES} images: remove one first`, {
      code: 'CHAT_IMAGES_FULL',
    });
}

/** A new order names exactly the images the chat profile has, each once. */
function refuseOtherImages(state: { chatImages: string[] }, mediaIds: string[]) {
  const same =
    mediaIds.length === state.chatImages.length &&
    new Set(mediaIds).size === mediaIds.length &&
    mediaIds.every((id) => state.chatImages.includes(id));
  if (!same)
    throw refuse.unprocessable('The new order must list each image of your chat profile once', {
      code: 'CHAT_IMAGES_ORDER',
    });
}

/** What the source item is, folded from its own stream (the write side, not a read model). */
interface SourceItem extends MediaState {
  width: number;
  height: number;
  variants: MediaVariant[];
}

const sourceFold = {
  initialState: { ...mediaDecider.initialState, width: 0, height: 0, variants: [] } as SourceItem,
  evolve(state: SourceItem, event: MediaEvent): SourceItem {
    const next = { ...state, ...mediaDecider.evolve(state, event) };
    if (event.type !== 'MediaProcessed') return next;
    const { width, height, variants } = event.data;
    return { ...next, width, height, variants };
  },
};

/** The item's largest stored WebP variant (what the crop is cut from). */
function largestVariant(variants: MediaVariant[]): MediaVariant | undefined {
  return [...IMAGE_WIDTHS]
    .reverse()
    .map((width) => `w${width}.webp` as MediaVariant)
    .find((variant) => variants.includes(variant));
}

/** The profile shows a variant fit for its size: a small one for an avatar, a wide one for a cover. */
function shownVariant(slot: ProfileImageSlot, variants: MediaVariant[]): MediaVariant {
  if (slot === 'avatar') return 'w320.webp';
  if (slot === 'chat') return variants.includes('w640.webp') ? 'w640.webp' : 'w320.webp';
  return variants.includes('w1280.webp') ? 'w1280.webp' : (largestVariant(variants) ?? 'w320.webp');
}

/** An avatar without a crop is the largest centred square; a cover or chat image, the whole picture. */
function defaultCrop(slot: ProfileImageSlot, width: number, height: number): CropRect {
  if (slot !== 'avatar') return { x: 0, y: 0, width, height };
  const side = Math.min(width, height);
  return { x: Math.floor((width - side) / 2), y: Math.floor((height - side) / 2), width: side, height: side };
}

function checkCrop(crop: CropRect, width: number, height: number) {
  const whole = [crop.x, crop.y, crop.width, crop.height].every(Number.isInteger);
  if (!whole || crop.x < 0 || crop.y < 0 || crop.width < 1 || crop.height < 1)
    throw refuse.validation('The crop must be whole pixels: x and y at least 0, width and height at least 1');
  if (crop.x + crop.width > width || crop.y + crop.height > height)
    throw refuse.unprocessable(`The crop must lie inside the image (${width}x${height} pixels)`, {
      code: 'CROP_OUTSIDE_IMAGE',
    });
}

export interface ProfileImageDeps {
  store: EventStore;
  storage: MediaStorage;
  /** Where the cut is written while its variants are made (under LIVELY_DATA_DIR). */
  workDir: string;
  imagePixels: number;
}

export interface SetProfileImageInput {
  userId: string;
  slot: ProfileImageSlot;
  sourceMediaId: string;
  crop?: CropRect;
}

/**
 * Sets the user's avatar or cover from their own ready image: checks it (422 when it is not
 * theirs, not an image or not ready), cuts the crop, stores the new item's variants, records
 * it (MediaUploaded, MediaProcessed) and then AvatarSet or CoverSet.
 */
export async function setProfileImage(deps: ProfileImageDeps, input: SetProfileImageInput, context: CommandContext) {
  const { state: source } = await loadState(deps.store, mediaStream(input.sourceMediaId), sourceFold);
  if (source.status === 'none' || source.status === 'deleted' || source.ownerId !== input.userId)
    throw refuse.unprocessable('This image is not in your media library', { code: 'MEDIA_NOT_YOURS' });
  if (source.kind !== 'image') throw refuse.unprocessable('Only a photo can be used here', { code: 'MEDIA_NOT_IMAGE' });
  if (source.status !== 'ready')
    throw refuse.unprocessable(
      source.status === 'processing'
        ? 'This image is still processing; try again when it is ready'
        : 'This image failed to process and cannot be used',
      { code: 'MEDIA_NOT_READY' },
    );
  // Refused before any work when the chat profile is full (the decider checks again).
  if (input.slot === 'chat')
    refuseFullChatProfile((await loadState(deps.store, profileImagesStream(input.userId), profileImagesDecider)).state);
  const crop = input.crop ?? defaultCrop(input.slot, source.width, source.height);
  checkCrop(crop, source.width, source.height);

  const cut = await cutFrom(deps.storage, input.sourceMediaId, source, crop);
  const mediaId = newId();
  const image = await variantsOf(deps, cut);
  const variants: MediaVariant[] = [];
  for (const file of image.files) {
    await deps.storage.put(mediaKey(mediaId, file.variant), file.body, file.contentType);
    variants.push(file.variant);
  }
  const at = context.now;
  const stream = mediaStream(mediaId);
  await handleCommand(
    deps.store,
    stream,
    mediaDecider,
    { type: 'RecordUpload', mediaId, ownerId: input.userId, kind: 'image', mime: 'image/png', bytes: cut.length, at },
    context,
  );
  const { width, height } = image;
  await handleCommand(
    deps.store,
    stream,
    mediaDecider,
    { type: 'RecordProcessed', mediaId, width, height, variants, at },
    context,
  );
  const data = {
    userId: input.userId,
    mediaId,
    sourceMediaId: input.sourceMediaId,
    crop,
    variant: shownVariant(input.slot, variants),
    at: at.toISOString(),
  };
  const result = await handleCommand(
    deps.store,
    profileImagesStream(input.userId),
    profileImagesDecider,
    { type: 'SetProfileImage', slot: input.slot, ...data },
    context,
  );
  return { ...result, mediaId, url: publicMediaUrl(mediaId, data.variant), width, height };
}

/** The crop, scaled to the stored variant it is cut from, as a lossless PNG. */
async function cutFrom(storage: MediaStorage, mediaId: string, source: SourceItem, crop: CropRect): Promise<Buffer> {
  const variant = largestVariant(source.variants);
  const found = variant ? await storage.read(mediaKey(mediaId, variant)) : null;
  if (!found) throw refuse.unprocessable('This image has no stored picture to cut from', { code: 'MEDIA_NOT_READY' });
  const stored = await buffer(found.body);
  const { width = source.width, height = source.height } = await sharp(stored).metadata();
  const scale = width / source.width;
  // Rounded to the stored pixels, and kept inside them.
  const left = Math.min(Math.round(crop.x * scale), width - 1);
  const top = Math.min(Math.round(crop.y * scale), height - 1);
  const region = {
    left,
    top,
    width: Math.max(1, Math.min(Math.round(crop.width * scale), width - left)),
    height: Math.max(1, Math.min(Math.round(crop.height * scale), height - top)),
  };
  return sharp(stored).extract(region).png({ compressionLevel: 1 }).toBuffer();
}

/** The cut made into the variants every image has (through the same pipeline as uploads). */
async function variantsOf(deps: ProfileImageDeps, cut: Buffer) {
  await mkdir(deps.workDir, { recursive: true });
  const dir = await mkdtemp(path.join(deps.workDir, 'profile-'));
  try {
    const file = path.join(dir, 'cut.png');
    await writeFile(file, cut);
    return await processImage(file, deps.imagePixels);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Takes one image off the chat profile (its item stays in the vault, free to delete). */
export function removeChatProfileImage(
  store: EventStore,
  input: { userId: string; mediaId: string },
  context: CommandContext,
) {
  return handleCommand(
    store,
    profileImagesStream(input.userId),
    profileImagesDecider,
    { type: 'RemoveChatProfileImage', ...input, at: context.now.toISOString() },
    context,
  );
}

/** Puts the chat profile's images in the given order (all of them, each once). */
export function reorderChatProfileImages(
  store: EventStore,
  input: { userId: string; mediaIds: string[] },
  context: CommandContext,
) {
  return handleCommand(
    store,
    profileImagesStream(input.userId),
    profileImagesDecider,
    { type: 'ReorderChatProfileImages', ...input, at: context.now.toISOString() },
    context,
  );
}
