import { deciderSpec } from '../shared/testing/decider-spec';
import { identityVerificationDecider } from './decider';
import type { IdentityVerificationEvent, IdentityVerificationSubmittedData } from './events';

const spec = deciderSpec(identityVerificationDecider);
const at = new Date('2026-01-02T03:04:05Z');
const submission = (submissionId = 's1'): IdentityVerificationSubmittedData => ({
  creatorId: 'c1',
  submissionId,
  provider: 'sandbox',
  providerReference: `sbx_verified_${submissionId}`,
  sealedIdentity: 'sealed',
  files: {
    document: { key: `verification/${submissionId}/document`, mime: 'image/jpeg' },
    selfie: { key: `verification/${submissionId}/selfie`, mime: 'image/png' },
  },
  submittedAt: at.toISOString(),
});
const submitted = (id = 's1'): IdentityVerificationEvent => ({
  type: 'IdentityVerificationSubmitted',
  data: submission(id),
});
const submit = (id = 's1') => ({ type: 'SubmitIdentityVerification' as const, ...submission(id) });
const base = { creatorId: 'c1', submissionId: 's1', provider: 'sandbox', at: at.toISOString() };
const review: IdentityVerificationEvent = {
  type: 'IdentityVerificationNeedsReview',
  data: { ...base, reason: 'Blurry' },
};
const answer = (status: 'pending' | 'verified') => ({
  type: 'RecordProviderAnswer' as const,
  submissionId: 's1',
  answer: { status },
  at,
});
const staff = (decision: 'verified' | 'rejected', reason = '') => ({
  type: 'DecideIdentityVerification' as const,
  submissionId: 's1',
  decision,
  reason,
  staffId: 'staff1',
  at,
});

describe('identity verification decider', () => {
  it('submits once at a time: 409 while pending or in review, and once verified', () => {
    spec.given([]).when(submit()).then([submitted()]);
    spec
      .given([submitted()])
      .when(submit('s2'))
      .thenThrows({ kind: 'conflict', message: 'Your verification is already being checked' });
    spec.given([submitted(), review]).when(submit('s2')).thenThrows({ kind: 'conflict' });
    spec
      .given([submitted(), { type: 'IdentityVerified', data: { ...base, decidedBy: null } }])
      .when(submit('s2'))
      .thenThrows('Your identity is already verified');
  });

  it('records the provider answer for the pending submission only, once', () => {
    spec.given([submitted()]).when(answer('pending')).thenNothing();
    spec
      .given([submitted()])
      .when(answer('verified'))
      .then([{ type: 'IdentityVerified', data: { ...base, decidedBy: null } }]);
    spec
      .given([submitted()])
      .when({ ...answer('verified'), answer: { status: 'rejected', reason: 'Document unreadable' } })
      .then([
        { type: 'IdentityVerificationRejected', data: { ...base, decidedBy: null, reason: 'Document unreadable' } },
      ]);
    spec.given([submitted(), review]).when(answer('verified')).thenNothing();
    spec
      .given([submitted('s0')])
      .when(answer('verified'))
      .thenNothing();
  });

  it('lets a rejected creator submit again', () => {
    const rejected: IdentityVerificationEvent = {
      type: 'IdentityVerificationRejected',
      data: { ...base, decidedBy: null, reason: 'Document unreadable' },
    };
    spec
      .given([submitted(), rejected])
      .when(submit('s2'))
      .then([submitted('s2')]);
    expect(spec.fold([submitted(), rejected, submitted('s2')])).toMatchObject({
      status: 'pending',
      current: { submissionId: 's2' },
    });
  });

  it('staff decide only what waits for review, naming themselves; a rejection needs a reason', () => {
    spec.given([submitted()]).when(staff('verified')).thenThrows({ kind: 'conflict' });
    spec
      .given([submitted(), review])
      .when(staff('verified'))
      .then([{ type: 'IdentityVerified', data: { ...base, decidedBy: 'staff1' } }]);
    spec.given([submitted(), review]).when(staff('rejected', '  ')).thenThrows({ kind: 'validation' });
    spec
      .given([submitted(), review])
      .when(staff('rejected', 'Expired ID'))
      .then([{ type: 'IdentityVerificationRejected', data: { ...base, decidedBy: 'staff1', reason: 'Expired ID' } }]);
  });

  it('records who viewed which file of a known submission', () => {
    const viewed = {
      type: 'RecordIdentityDocumentViewed' as const,
      submissionId: 's1',
      kind: 'selfie' as const,
      staffId: 'staff1',
      at,
    };
    spec
      .given([submitted()])
      .when(viewed)
      .then([
        {
          type: 'IdentityDocumentViewed',
          data: { creatorId: 'c1', submissionId: 's1', kind: 'selfie', staffId: 'staff1', at: at.toISOString() },
        },
      ]);
    spec
      .given([submitted()])
      .when({ ...viewed, submissionId: 'other' })
      .thenThrows('Verification not found');
  });
});
