import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { VerificationStatus } from '../../domain/contracts/verification';
import type { EventStore } from '../../domain/event-store/port';
import type { MediaStorage } from '../../domain/media/storage';
import { loadState } from '../../domain/shared/command-handler';
import {
  checkIdentityVerifications,
  submitIdentityVerification,
  type IdentityVerificationPorts,
  type Sealer,
} from '../../domain/verification/commands';
import { identityVerificationDecider } from '../../domain/verification/decider';
import { identityVerificationStream } from '../../domain/verification/events';
import { createSandboxIdentityProvider } from '../../domain/verification/sandbox-provider';
import type { SeedClient } from '../commands/seed-client';
import { as } from './env';
import type { Person } from './people';

/**
 * Seeded creators verify their identity as a creator does (issue 20): the form with a legal
 * name, a birth date and two photos, answered by the sandbox provider a few seconds later. An
 * ordinary name is verified; a rerun leaves a verified creator as they are.
 */

const photo = (hue: string) =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: hue } })
    .jpeg()
    .toBuffer();

export async function seedIdentityVerification(
  client: SeedClient,
  person: { firstName: string; lastName: string },
): Promise<void> {
  const status = () => client.ok<VerificationStatus>('GET', '/api/creators/verification');
  const { state } = await status();
  if (state === 'not_started' || state === 'rejected') {
    const form = new FormData();
    form.append('legalName', `${person.firstName} ${person.lastName}`);
    form.append('dateOfBirth', '1991-06-15');
    const jpeg = (bytes: Buffer) => new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' });
    form.append('document', jpeg(await photo('#8aa4c8')), 'id-card.jpg');
    form.append('selfie', jpeg(await photo('#c8a48a')), 'selfie.jpg');
    const sent = await client.postForm('/api/creators/verification', form);
    if (sent.status !== 202)
      throw new Error(`POST /api/creators/verification -> ${sent.status} ${JSON.stringify(sent.body)}`);
  }
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    if ((await status()).state === 'verified') return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the identity verification was not answered within a minute');
}

/**
 * The in-process (large) seed's creators, and the media benchmark's, verify through the verification context's own
 * commands, as the API and the identity ticker run them: the form's two photos sealed and kept
 * in the product's media storage, then the sandbox provider's answer (it answers at once here).
 * The photos are written to a folder once and shared by every creator.
 */
export class InProcessIdentityVerification {
  private folder: Promise<{ dir: string; document: string; selfie: string }> | null = null;

  constructor(private readonly ports: { storage: MediaStorage; sealer: Sealer }) {}

  async verify(store: EventStore, person: Pick<Person, 'id' | 'firstName' | 'lastName'>, now: Date): Promise<void> {
    const ports: IdentityVerificationPorts = { ...this.ports, store, provider: SANDBOX_AT_ONCE };
    let { state } = await loadState(store, identityVerificationStream(person.id), identityVerificationDecider);
    if (state.status === 'verified') return;
    if (state.status === 'not_started' || state.status === 'rejected') {
      const { document, selfie } = await this.photos();
      const legalName = `${person.firstName} ${person.lastName}`;
      const input = { creatorId: person.id, legalName, dateOfBirth: '1991-06-15', files: { document, selfie } };
      state = (await submitIdentityVerification(ports, input, as(person.id, now))).state;
    }
    const submissionId = state.current?.submissionId;
    if (submissionId) await checkIdentityVerifications(ports, [{ creatorId: person.id, submissionId }], now);
  }

  /** Removes the shared photos' folder. */
  async close(): Promise<void> {
    if (this.folder) await rm((await this.folder).dir, { recursive: true, force: true });
  }

  private photos() {
    return (this.folder ??= (async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'lively-seed-identity-'));
      const document = path.join(dir, 'id-card.jpg');
      const selfie = path.join(dir, 'selfie.jpg');
      await writeFile(document, await photo('#8aa4c8'));
      await writeFile(selfie, await photo('#c8a48a'));
      return { dir, document, selfie };
    })());
  }
}

/** The sandbox provider without its delay: an ordinary name is verified when first asked. */
const SANDBOX_AT_ONCE = createSandboxIdentityProvider(0);
