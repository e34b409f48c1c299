import { z } from 'zod';
import { text } from './text';

/** Identity verification of creators (issue 20): what the creator and compliance staff see. */

export type VerificationState = 'not_started' | 'pending' | 'needs_review' | 'verified' | 'rejected';

/** GET /api/creators/verification: the creator's own status. */
export interface VerificationStatus {
  state: VerificationState;
  submittedAt: string | null;
  decidedAt: string | null;
  /** Why it was rejected or sent to review. */
  reason: string | null;
}

export const VERIFICATION_MIN_AGE = 18;
/** The largest ID photo or selfie accepted. */
export const VERIFICATION_FILE_BYTES = 10 * 1024 * 1024;
export const UNDER_AGE_MESSAGE = 'You must be 18 or older to verify your identity';

/** Whether someone born on `dateOfBirth` (YYYY-MM-DD) is at least 18 on `at` (UTC calendar). */
export function isAdult(dateOfBirth: string, at: Date): boolean {
  const [year, month, day] = dateOfBirth.split('-').map(Number);
  const birthday = Date.UTC(year + VERIFICATION_MIN_AGE, month - 1, day);
  return birthday <= Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
}

const realDate = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) && date.getUTCFullYear() >= 1900;
};

/** The text fields of POST /api/creators/verification (multipart, beside `document` and `selfie`). */
export const verificationFieldsSchema = z.object({
  legalName: text({ error: 'Legal name is required' })
    .trim()
    .min(2, 'Legal name is required')
    .max(200, 'Legal name is too long'),
  dateOfBirth: text({ error: 'Date of birth is required' })
    .trim()
    .min(1, 'Date of birth is required')
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date of birth must be a date (YYYY-MM-DD)')
    .refine(realDate, 'Date of birth must be a real date'),
});
export type VerificationFields = z.infer<typeof verificationFieldsSchema>;

/** POST /api/admin/verifications/:id/decide */
export const verificationDecisionSchema = z.object({
  decision: z.enum(['verified', 'rejected'], { error: 'Decision must be verified or rejected' }),
  reason: text().trim().max(500, 'Reason is too long').optional().default(''),
});
export type VerificationDecision = z.input<typeof verificationDecisionSchema>;

export type VerificationFileKind = 'document' | 'selfie';

/** One submission as compliance staff see it (GET /api/admin/verifications). */
export interface AdminVerification {
  id: string;
  creatorId: string;
  creatorName: string;
  creatorEmail: string;
  legalName: string;
  dateOfBirth: string;
  state: Exclude<VerificationState, 'not_started'>;
  provider: string;
  submittedAt: string;
  decidedAt: string | null;
  /** The staff member's name when staff decided; null when the provider did. */
  decidedBy: string | null;
  reason: string | null;
}

export interface AdminVerificationPage {
  items: AdminVerification[];
  nextCursor: string | null;
}

export const VERIFICATION_STATES: readonly VerificationState[] = [
  'not_started',
  'pending',
  'needs_review',
  'verified',
  'rejected',
];
