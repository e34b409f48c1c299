import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { IdentityFileKind, IdentityVerificationEvent, IdentityVerificationSubmittedData } from './events';
import type { ProviderAnswer } from './provider';

export type IdentityStatus = 'not_started' | 'pending' | 'needs_review' | 'verified' | 'rejected';

export interface IdentityVerificationState {
  status: IdentityStatus;
  /** The newest submission (what the status is about), null before the first. */
  current: IdentityVerificationSubmittedData | null;
  /** Every submission's files, by submission id (staff may look at earlier ones too). */
  files: Record<string, IdentityVerificationSubmittedData['files']>;
}

export type IdentityVerificationCommand =
  | ({ type: 'SubmitIdentityVerification' } & IdentityVerificationSubmittedData)
  | { type: 'RecordProviderAnswer'; submissionId: string; answer: ProviderAnswer; at: Date }
  | {
      type: 'DecideIdentityVerification';
      submissionId: string;
      decision: 'verified' | 'rejected';
      reason: string;
      staffId: string;
      at: Date;
    }
  | { type: 'RecordIdentityDocumentViewed'; submissionId: string; kind: IdentityFileKind; staffId: string; at: Date };

const STATUS_AFTER: Record<Exclude<IdentityVerificationEvent['type'], 'IdentityDocumentViewed'>, IdentityStatus> = {
  IdentityVerificationSubmitted: 'pending',
  IdentityVerificationNeedsReview: 'needs_review',
  IdentityVerified: 'verified',
  IdentityVerificationRejected: 'rejected',
};

function refuseSubmission(status: IdentityStatus) {
  if (status === 'verified') throw refuse.conflict('Your identity is already verified', { code: 'ALREADY_VERIFIED' });
  if (status === 'pending' || status === 'needs_review')
    throw refuse.conflict('Your verification is already being checked', { code: 'VERIFICATION_PENDING' });
}

function decideAnswer(
  state: IdentityVerificationState,
  command: Extract<IdentityVerificationCommand, { type: 'RecordProviderAnswer' }>,
): IdentityVerificationEvent[] {
  const current = state.current;
  if (state.status !== 'pending' || current?.submissionId !== command.submissionId) return [];
  const base = {
    creatorId: current.creatorId,
    submissionId: current.submissionId,
    provider: current.provider,
    at: command.at.toISOString(),
  };
  switch (command.answer.status) {
    case 'pending':
      return [];
    case 'verified':
      return [{ type: 'IdentityVerified', data: { ...base, decidedBy: null } }];
    case 'rejected':
      return [
        { type: 'IdentityVerificationRejected', data: { ...base, decidedBy: null, reason: command.answer.reason } },
      ];
    case 'needs_review':
      return [{ type: 'IdentityVerificationNeedsReview', data: { ...base, reason: command.answer.reason } }];
  }
}

function decideByStaff(
  state: IdentityVerificationState,
  command: Extract<IdentityVerificationCommand, { type: 'DecideIdentityVerification' }>,
): IdentityVerificationEvent[] {
  const current = state.current;
  if (!current || current.submissionId !== command.submissionId || state.status !== 'needs_review')
    throw refuse.conflict('Only a verification waiting for review can be decided', { code: 'NOT_IN_REVIEW' });
  const reason = command.reason.trim();
  if (command.decision === 'rejected' && !reason)
    throw refuse.validation('Say why the verification is rejected', { reason: 'A reason is required' });
  const data = {
    creatorId: current.creatorId,
    submissionId: current.submissionId,
    provider: current.provider,
    decidedBy: command.staffId,
    at: command.at.toISOString(),
  };
  return command.decision === 'verified'
    ? [{ type: 'IdentityVerified', data }]
    : [{ type: 'IdentityVerificationRejected', data: { ...data, reason } }];
}

export const identityVerificationDecider: Decider<
  IdentityVerificationCommand,
  IdentityVerificationState,
  IdentityVerificationEvent
> = {
  initialState: { status: 'not_started', current: null, files: {} },
  evolve(state, event) {
    if (event.type === 'IdentityDocumentViewed') return state;
    if (event.type === 'IdentityVerificationSubmitted')
      return {
        status: 'pending',
        current: event.data,
        files: { ...state.files, [event.data.submissionId]: event.data.files },
      };
    return { ...state, status: STATUS_AFTER[event.type] };
  },
  decide(command, state) {
    switch (command.type) {
      case 'SubmitIdentityVerification': {
        refuseSubmission(state.status);
        const { type: _type, ...data } = command;
        return [{ type: 'IdentityVerificationSubmitted', data }];
      }
      case 'RecordProviderAnswer':
        return decideAnswer(state, command);
      case 'DecideIdentityVerification':
        return decideByStaff(state, command);
      case 'RecordIdentityDocumentViewed': {
        const creatorId = state.current?.creatorId;
        if (!creatorId || !state.files[command.submissionId]) throw refuse.notFound('Verification not found');
        return [
          {
            type: 'IdentityDocumentViewed',
            data: {
              creatorId,
              submissionId: command.submissionId,
              kind: command.kind,
              staffId: command.staffId,
              at: command.at.toISOString(),
            },
          },
        ];
      }
    }
  },
};

/** Whether a submission may be made now (else the refusal the decider would throw). */
export const assertMaySubmit = (state: IdentityVerificationState) => refuseSubmission(state.status);
