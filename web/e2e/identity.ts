import type { APIRequestContext } from 'playwright-core';
import { checkIdentityVerifications } from '../../domain/verification/commands';
import { createSandboxIdentityProvider } from '../../domain/verification/sandbox-provider';
import { identityVerified, pendingIdentityVerifications } from '../../projections/verifications';
import { testPhoto } from '../../ops/testing/identity-verification';
import type { TestStack } from '../../ops/testing/harness';
import { eventually } from '../../ops/testing/eventually';

/**
 * A journey's creator verifies their identity (locked posts, paid messages and payouts need it,
 * issue 20): the form as the browser sends it, then the sandbox provider's answer, checked at once.
 */
export async function verifyCreatorIdentity(stack: TestStack, request: APIRequestContext, creatorId: string) {
  const photo = { name: 'id.jpg', mimeType: 'image/jpeg', buffer: await testPhoto() };
  const sent = await request.post('/api/creators/verification', {
    headers: { Origin: stack.url },
    multipart: { legalName: 'Journey Creator', dateOfBirth: '1990-04-05', document: photo, selfie: photo },
  });
  if (sent.status() !== 202) throw new Error(`verification refused: ${sent.status()} ${await sent.text()}`);
  const mine = (await pendingIdentityVerifications(stack.db)).filter((row) => row.creatorId === creatorId);
  await checkIdentityVerifications(
    { store: stack.store, provider: createSandboxIdentityProvider(0) },
    mine,
    new Date(),
  );
  if (!(await eventually(() => identityVerified(stack.db, creatorId), Boolean)))
    throw new Error(`the creator ${creatorId} never became verified`);
}
