import type { IdentityProvider, ProviderAnswer } from './provider';

/**
 * The sandbox identity provider. Test values, by legal name:
 * - containing "Reject": rejected, "Document unreadable";
 * - containing "Review": needs review by staff, "Selfie does not clearly match the document";
 * - anything else: verified.
 * Every answer comes `delayMs` after submission (default 3 s). Like a real provider it keeps the
 * case on its side; here the outcome is carried in the reference it hands back, so a restart
 * loses nothing.
 */
export const SANDBOX_REJECT_REASON = 'Document unreadable';
export const SANDBOX_REVIEW_REASON = 'Selfie does not clearly match the document';

const OUTCOMES: Record<string, ProviderAnswer> = {
  verified: { status: 'verified' },
  rejected: { status: 'rejected', reason: SANDBOX_REJECT_REASON },
  review: { status: 'needs_review', reason: SANDBOX_REVIEW_REASON },
};

function outcomeFor(legalName: string): keyof typeof OUTCOMES {
  if (/reject/i.test(legalName)) return 'rejected';
  if (/review/i.test(legalName)) return 'review';
  return 'verified';
}

export function createSandboxIdentityProvider(delayMs = 3000): IdentityProvider {
  return {
    name: 'sandbox',
    async submit(submission) {
      return { providerReference: `sbx_${outcomeFor(submission.legalName)}_${submission.reference}` };
    },
    async status({ providerReference, submittedAt }, now) {
      if (now.getTime() < submittedAt.getTime() + delayMs) return { status: 'pending' };
      return OUTCOMES[providerReference.split('_')[1]] ?? { status: 'rejected', reason: 'Unknown case' };
    },
  };
}
