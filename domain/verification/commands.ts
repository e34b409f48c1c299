import { readFile } from 'node:fs/promises';
import { isAdult, UNDER_AGE_MESSAGE, type VerificationFields } from '../contracts/verification';
import type { EventStore } from '../event-store/port';
import { refuseMedia } from '../media/limits';
import { imageHeader, readHead, sniffHead } from '../media/sniff';
import type { MediaStorage } from '../media/storage';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { deterministicId, newId } from '../shared/ids';
import { assertMaySubmit, identityVerificationDecider } from './decider';
import { identityVerificationStream, type IdentityFileKind, type StoredIdentityFile } from './events';
import type { IdentityProvider } from './provider';
import type { Sealer } from './sealing';

/**
 * The identity-verification context's way in for api/ and ops/: submitting, the provider's
 * answers (polled by a ticker), staff decisions and staff reading a file (audited).
 */
export type { IdentityProvider } from './provider';
export type { Sealer } from './sealing';
export type { IdentityFileKind } from './events';
export { MediaRefusal } from '../media/limits';

export interface IdentityVerificationPorts {
  store: EventStore;
  storage: MediaStorage;
  provider: IdentityProvider;
  sealer: Sealer;
}

/** How often pending submissions are asked about. */
export const IDENTITY_CHECK_MS = 500;

export const verificationPrefix = (submissionId: string) => `verification/${submissionId}/`;

const stream = identityVerificationStream;

/** An uploaded file, checked to be an image by its content (never its name); its bytes and type. */
async function imageFile(path: string): Promise<{ bytes: Buffer; mime: string }> {
  const sniffed = sniffHead(await readHead(path));
  if (sniffed?.kind !== 'image' || !(await imageHeader(path, sniffed.mime))) throw refuseMedia.unsupported();
  return { bytes: await readFile(path), mime: sniffed.mime };
}

/**
 * A creator's submission: 18+ checked, both files sniffed as images, sealed and stored under
 * `verification/<submissionId>/` (never the public media pipeline), handed to the provider,
 * then `IdentityVerificationSubmitted` with the name and birth date sealed. 409 while one is
 * being checked or once verified.
 */
export async function submitIdentityVerification(
  ports: IdentityVerificationPorts,
  input: VerificationFields & { creatorId: string; files: Record<IdentityFileKind, string> },
  context: CommandContext,
) {
  if (!isAdult(input.dateOfBirth, context.now))
    throw refuse.validation(UNDER_AGE_MESSAGE, { dateOfBirth: UNDER_AGE_MESSAGE });
  assertMaySubmit((await loadState(ports.store, stream(input.creatorId), identityVerificationDecider)).state);
  const document = await imageFile(input.files.document);
  const selfie = await imageFile(input.files.selfie);
  const submissionId = newId();
  const store = async (kind: IdentityFileKind, file: { bytes: Buffer; mime: string }): Promise<StoredIdentityFile> => {
    const key = `${verificationPrefix(submissionId)}${kind}`;
    await ports.storage.put(key, ports.sealer.seal(file.bytes), 'application/octet-stream');
    return { key, mime: file.mime };
  };
  try {
    const files = { document: await store('document', document), selfie: await store('selfie', selfie) };
    const identity = { legalName: input.legalName, dateOfBirth: input.dateOfBirth };
    const { providerReference } = await ports.provider.submit({
      reference: submissionId,
      ...identity,
      document,
      selfie,
      submittedAt: context.now,
    });
    return await handleCommand(
      ports.store,
      stream(input.creatorId),
      identityVerificationDecider,
      {
        type: 'SubmitIdentityVerification',
        creatorId: input.creatorId,
        submissionId,
        provider: ports.provider.name,
        providerReference,
        sealedIdentity: ports.sealer.seal(Buffer.from(JSON.stringify(identity))).toString('base64'),
        files,
        submittedAt: context.now.toISOString(),
      },
      context,
    );
  } catch (error) {
    await ports.storage.deletePrefix(verificationPrefix(submissionId));
    throw error;
  }
}

/** The legal name and date of birth of a submission, for compliance staff. */
export function openIdentity(sealer: Sealer, sealedIdentity: string): VerificationFields {
  return JSON.parse(sealer.open(Buffer.from(sealedIdentity, 'base64')).toString('utf8')) as VerificationFields;
}

/**
 * The ticker's work: asks the provider about each pending submission and records its answer.
 * Candidates come from the read model (which may lag: the stream decides); the event id
 * derives from the submission, so two processes checking at once record it once.
 */
export async function checkIdentityVerifications(
  ports: Pick<IdentityVerificationPorts, 'store' | 'provider'>,
  pending: Array<{ creatorId: string; submissionId: string }>,
  now: Date,
): Promise<number> {
  let decided = 0;
  for (const { creatorId, submissionId } of pending) {
    const { state } = await loadState(ports.store, stream(creatorId), identityVerificationDecider);
    const current = state.current;
    if (state.status !== 'pending' || current?.submissionId !== submissionId) continue;
    if (current.provider !== ports.provider.name) continue;
    const answer = await ports.provider.status(
      { providerReference: current.providerReference, submittedAt: new Date(current.submittedAt) },
      now,
    );
    if (answer.status === 'pending') continue;
    const result = await handleCommand(
      ports.store,
      stream(creatorId),
      identityVerificationDecider,
      { type: 'RecordProviderAnswer', submissionId, answer, at: now },
      { actorId: `system:identity-${ports.provider.name}`, now },
      { eventIds: [deterministicId(submissionId, 'provider-answer')] },
    );
    decided += result.events.length;
  }
  return decided;
}

/** Staff decide a submission the provider sent to review. */
export async function decideIdentityVerification(
  store: EventStore,
  input: {
    creatorId: string;
    submissionId: string;
    decision: 'verified' | 'rejected';
    reason: string;
    staffId: string;
  },
  context: CommandContext,
) {
  return handleCommand(
    store,
    stream(input.creatorId),
    identityVerificationDecider,
    { type: 'DecideIdentityVerification', ...input, at: context.now },
    context,
  );
}

/** A stored file opened for compliance staff; the viewing is recorded first (audit). */
export async function readIdentityFile(
  ports: IdentityVerificationPorts,
  input: { creatorId: string; submissionId: string; kind: IdentityFileKind; staffId: string },
  context: CommandContext,
): Promise<{ bytes: Buffer; mime: string }> {
  const result = await handleCommand(
    ports.store,
    stream(input.creatorId),
    identityVerificationDecider,
    { type: 'RecordIdentityDocumentViewed', ...input, at: context.now },
    context,
  );
  const file = result.state.files[input.submissionId][input.kind];
  const found = await ports.storage.read(file.key);
  if (!found) throw refuse.notFound('File not found');
  const chunks: Buffer[] = [];
  for await (const chunk of found.body) chunks.push(chunk as Buffer);
  return { bytes: ports.sealer.open(Buffer.concat(chunks)), mime: file.mime };
}
