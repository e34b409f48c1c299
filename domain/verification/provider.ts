/**
 * The identity-verification port: a provider checks a legal name, date of birth, ID document
 * and selfie. Asynchronous like real ones: `submit` hands the case over, and the answer is
 * fetched later (`status`, polled by the identity-verification ticker).
 */
export interface IdentitySubmission {
  /** Our submission id (the provider's idempotency key). */
  reference: string;
  legalName: string;
  dateOfBirth: string;
  document: { bytes: Buffer; mime: string };
  selfie: { bytes: Buffer; mime: string };
  submittedAt: Date;
}

export type ProviderAnswer =
  | { status: 'pending' }
  | { status: 'verified' }
  | { status: 'rejected'; reason: string }
  | { status: 'needs_review'; reason: string };

export interface IdentityProvider {
  readonly name: string;
  submit(submission: IdentitySubmission): Promise<{ providerReference: string }>;
  status(check: { providerReference: string; submittedAt: Date }, now: Date): Promise<ProviderAnswer>;
}
