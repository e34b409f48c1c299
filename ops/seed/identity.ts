import sharp from 'sharp';
import type { VerificationStatus } from '../../domain/contracts/verification';
import type { SeedClient } from '../commands/seed-client';

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
