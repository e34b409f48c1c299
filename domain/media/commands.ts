import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext } from '../shared/command-handler';
import { mediaDecider } from './decider';
import { mediaStream } from './events';
import type { MediaStorage } from './storage';
import { mediaPrefix } from './variants';

/**
 * The media context's way in for api/: taking uploads in (`ingest.ts`), deleting, and the
 * types of the ports. Processing runs in the job queue (`job-queue.ts`), started by ops/.
 */
export { ingestUpload, checkUpload, type MediaIngest, type Uploader, type UploadedFile } from './ingest';
export { MediaRefusal, refuseMedia, largestUpload, bytesLimit, type MediaLimits } from './limits';
export { sniffHead } from './sniff';
// Delivery (api/routes/media-files.ts): stored objects' names, the storage port, signed URLs.
export { mediaKey, type MediaVariant } from './variants';
export type { ByteRange, MediaStorage, StoredObject } from './storage';
export type { MediaUrlSigner } from './signed-url';
export type { Watermarks } from './watermark';
// Avatars and covers cut from one's own image, served publicly (profile-images.ts).
export {
  removeChatProfileImage,
  reorderChatProfileImages,
  setProfileImage,
  type ProfileImageSlot,
} from './profile-images';

/**
 * Deletes an item of the owner's: MediaDeleted, then its stored objects (a side effect after
 * the event, never in a projector). Refused while a post or message uses it (`inUse`).
 */
export async function deleteMedia(
  deps: { store: EventStore; storage: MediaStorage },
  input: { mediaId: string; actorId: string; inUse: boolean },
  context: CommandContext,
) {
  const result = await handleCommand(
    deps.store,
    mediaStream(input.mediaId),
    mediaDecider,
    { type: 'DeleteMedia', ...input, at: context.now },
    context,
  );
  await deps.storage.deletePrefix(mediaPrefix(input.mediaId));
  return result;
}
