/**
 * Identity verification of creators (issue 20): one stream per creator, `identityVerification-<id>`.
 * The legal name and date of birth never appear in clear: `sealedIdentity` is them sealed with
 * the verification key (AES-256-GCM), as the stored document and selfie are.
 */

export const identityVerificationStream = (creatorId: string) => `identityVerification-${creatorId}`;

export type IdentityFileKind = 'document' | 'selfie';

export interface StoredIdentityFile {
  /** Storage key under `verification/<submissionId>/`; the object holds nonce, tag and ciphertext. */
  key: string;
  /** The image type its content was sniffed as (served back to staff with it). */
  mime: string;
}

export interface IdentityVerificationSubmittedData {
  creatorId: string;
  submissionId: string;
  provider: string;
  providerReference: string;
  /** `{ legalName, dateOfBirth }` sealed with the verification key (base64). */
  sealedIdentity: string;
  files: Record<IdentityFileKind, StoredIdentityFile>;
  submittedAt: string;
}

interface Decision {
  creatorId: string;
  submissionId: string;
  provider: string;
  /** The staff member who decided; null when the provider did. */
  decidedBy: string | null;
  at: string;
}

export type IdentityVerificationEvent =
  | { type: 'IdentityVerificationSubmitted'; data: IdentityVerificationSubmittedData }
  | { type: 'IdentityVerificationNeedsReview'; data: Omit<Decision, 'decidedBy'> & { reason: string } }
  | { type: 'IdentityVerified'; data: Decision }
  | { type: 'IdentityVerificationRejected'; data: Decision & { reason: string } }
  | {
      type: 'IdentityDocumentViewed';
      data: { creatorId: string; submissionId: string; kind: IdentityFileKind; staffId: string; at: string };
    };
