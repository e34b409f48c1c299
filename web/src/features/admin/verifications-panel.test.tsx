import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { AdminVerification } from '@contracts/verification';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { VerificationsPanel } from './verifications-panel';

jest.setTimeout(30_000);
afterEach(cleanup);

const record: AdminVerification = {
  id: '11111111-1111-4111-8111-111111111111',
  creatorId: '22222222-2222-4222-8222-222222222222',
  creatorName: 'Ron Creator',
  creatorEmail: 'ron@example.com',
  legalName: 'Ron Review',
  dateOfBirth: '1988-02-29',
  state: 'needs_review',
  provider: 'sandbox',
  submittedAt: '2026-01-01T10:00:00.000Z',
  decidedAt: null,
  decidedBy: null,
  reason: 'Selfie does not clearly match the document',
};

function serve() {
  let current = record;
  return installFakeFetch((call) => {
    if (call.url.startsWith('/api/admin/verifications?') || call.url === '/api/admin/verifications') {
      const state = new URL(call.url, 'http://x').searchParams.get('state');
      return { status: 200, body: { items: !state || state === current.state ? [current] : [], nextCursor: null } };
    }
    if (call.url === `/api/admin/verifications/${record.id}/decide`) {
      const body = call.body as { decision: 'verified' | 'rejected'; reason: string };
      current = { ...current, state: body.decision, decidedBy: 'Sam Staff', decidedAt: '2026-01-01T11:00:00.000Z' };
      return { status: 200, body: current };
    }
    return { status: 404, body: { error: 'Not found' } };
  });
}

describe('VerificationsPanel', () => {
  it('lists what waits for review, shows both photos and decides', async () => {
    const calls = serve();
    renderWithApp(<VerificationsPanel />);
    expect(await screen.findByText('Ron Review')).toBeTruthy();
    expect(screen.getByText(/provider sandbox/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Review' }));
    const document = (await screen.findByAltText('ID document of Ron Review')) as HTMLImageElement;
    expect(document.getAttribute('src')).toBe(`/api/admin/verifications/${record.id}/files/document`);
    expect(screen.getByAltText('Selfie of Ron Review')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Say why the verification is rejected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const decided = calls.find((call) => call.method === 'POST');
    expect(decided?.body).toEqual({ decision: 'verified', reason: '' });
    expect(await screen.findByText('No verifications in “Needs review”.')).toBeTruthy();
  });
});
