import type { Knex } from 'knex';
import { refuse } from '../../domain/shared/errors';
import { identityVerified } from '../../projections/verifications';

/**
 * Verified creators (issue 20): locked posts, paid messages and payouts need the creator's
 * identity verified first; a 403 says what to do, with `code` the web client links to the
 * verification page by.
 */
export async function requireVerifiedIdentity(db: Knex, userId: string, action: string): Promise<void> {
  if (!(await identityVerified(db, userId)))
    throw refuse.forbidden(`Verify your identity to ${action}`, { code: 'IDENTITY_VERIFICATION_REQUIRED' });
}
