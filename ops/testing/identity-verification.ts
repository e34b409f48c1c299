import sharp from 'sharp';
import type supertest from 'supertest';
import { checkIdentityVerifications } from '../../domain/verification/commands';
import { createSandboxIdentityProvider } from '../../domain/verification/sandbox-provider';
import { identityVerified, pendingIdentityVerifications } from '../../projections/verifications';
import { eventually } from './eventually';
import type { TestStack } from './harness';

/**
 * Verified creators for tests (issue 20), through the real way: the creator submits the form
 * (`POST /api/creators/verification` with a JPEG ID photo and selfie), then the identity ticker's
 * check runs with the sandbox provider, which answers "verified" for an ordinary name. The
 * check is run here at once (a sandbox without delay is the same provider: its case travels in
 * the reference), so tests do not wait out the stack's sandbox delay.
 */

let photo: Promise<Buffer> | null = null;
/** A small real JPEG (sniffed and read as an image by the route). */
export const testPhoto = () =>
  (photo ??= sharp({ create: { width: 64, height: 48, channels: 3, background: '#c08050' } })
    .jpeg()
    .toBuffer());

/** Submits the verification form as `agent`; the response for the caller's assertions. */
export async function submitVerification(
  agent: supertest.Agent,
  fields: { legalName?: string; dateOfBirth?: string } = {},
): Promise<supertest.Response> {
  const jpeg = await testPhoto();
  return agent
    .post('/api/creators/verification')
    .field('legalName', fields.legalName ?? 'Casey Creator')
    .field('dateOfBirth', fields.dateOfBirth ?? '1990-04-05')
    .attach('document', jpeg, { filename: 'id.jpg', contentType: 'image/jpeg' })
    .attach('selfie', jpeg, { filename: 'selfie.jpg', contentType: 'image/jpeg' });
}

/** Makes the creator behind `agent` identity-verified; resolves once the read model says so. */
export async function verifyIdentity(stack: TestStack, agent: supertest.Agent, creatorId: string): Promise<void> {
  const submitted = await submitVerification(agent);
  if (submitted.status !== 202)
    throw new Error(`verification refused: ${submitted.status} ${JSON.stringify(submitted.body)}`);
  const provider = createSandboxIdentityProvider(0);
  // The submission's read model may lag its 202 on a busy machine: wait for the pending row.
  const mine = await eventually(
    async () => (await pendingIdentityVerifications(stack.db)).filter((row) => row.creatorId === creatorId),
    (rows) => rows.length > 0,
  );
  // The stack's clock: a test may have moved it (a submission from its future is not due on the wall clock).
  await checkIdentityVerifications({ store: stack.store, provider }, mine, stack.deps.clock());
  if (!(await eventually(() => identityVerified(stack.db, creatorId), Boolean)))
    throw new Error(`the creator ${creatorId} never became verified`);
}
