import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { VerificationStatus } from '@contracts/verification';
import { installFakeFetch, type FakeAnswer } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { VerificationPage } from './verification-page';

jest.setTimeout(30_000);
afterEach(cleanup);
beforeAll(() => {
  URL.createObjectURL = () => 'blob:preview';
  URL.revokeObjectURL = () => undefined;
});

const creator = {
  id: 'u1',
  email: 'c@example.com',
  firstName: 'Casey',
  lastName: 'Creator',
  profileImageUrl: null,
  role: 'creator',
  isCreator: true,
  ageVerified: true,
  subscriptionStatus: 'active',
  lastPaymentDate: null,
  subscriptionEndDate: null,
};
const status = (state: VerificationStatus['state'], reason: string | null = null): VerificationStatus => ({
  state,
  submittedAt: state === 'not_started' ? null : '2026-01-01T10:00:00.000Z',
  decidedAt: state === 'verified' || state === 'rejected' ? '2026-01-01T10:00:05.000Z' : null,
  reason,
});

function serve(initial: VerificationStatus, onSubmit?: () => FakeAnswer) {
  let current = initial;
  return installFakeFetch((call) => {
    if (call.url === '/api/auth/user') return { status: 200, body: creator };
    if (call.url === '/api/creators/verification' && call.method === 'POST') {
      const answer = onSubmit?.() ?? { status: 202, body: status('pending') };
      if (answer.status === 202) current = answer.body as VerificationStatus;
      return answer;
    }
    if (call.url === '/api/creators/verification') return { status: 200, body: current };
    return { status: 404, body: { error: 'Not found' } };
  });
}

const photo = (name: string, type = 'image/jpeg') =>
  new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], name, { type });
const pick = (label: string, file: File) =>
  fireEvent.change(screen.getByLabelText(label, { selector: 'input' }), { target: { files: [file] } });
const fill = (name: string, birth: string) => {
  fireEvent.change(screen.getByRole('textbox', { name: /legal name/i }), { target: { value: name } });
  fireEvent.change(screen.getByLabelText(/date of birth/i), { target: { value: birth } });
};
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Submit for verification' }));

describe('VerificationPage', () => {
  it('says what is missing before sending anything, including being under 18', async () => {
    const calls = serve(status('not_started'));
    renderWithApp(<VerificationPage />);
    await screen.findByRole('button', { name: 'Submit for verification' });
    submit();
    expect(await screen.findByText('Legal name is required')).toBeTruthy();
    expect(screen.getByText('A photo of your ID document is required')).toBeTruthy();
    expect(screen.getByText('A selfie is required')).toBeTruthy();
    const year = new Date().getUTCFullYear() - 17;
    fill('Casey Creator', `${year}-01-01`);
    expect(screen.queryByText('Legal name is required')).toBeNull(); // an edited field's error goes
    submit();
    expect(await screen.findByText('You must be 18 or older to verify your identity')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('sends the form with previews of both photos, then shows the pending state', async () => {
    const calls = serve(status('not_started'));
    renderWithApp(<VerificationPage />);
    await screen.findByRole('button', { name: 'Submit for verification' });
    fill('Casey Creator', '1990-04-05');
    pick('ID document', photo('id.jpg'));
    pick('Selfie', photo('me.jpg'));
    expect(screen.getByAltText('ID document preview')).toBeTruthy();
    expect(screen.getByAltText('Selfie preview')).toBeTruthy();
    submit();
    expect(await screen.findByText('Checking your identity')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST' && call.url === '/api/creators/verification')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Submit for verification' })).toBeNull();
  });

  it('shows the server refusal of a photo that is not an image', async () => {
    serve(status('not_started'), () => ({
      status: 415,
      body: { error: 'Unsupported file type', code: 'UNSUPPORTED_MEDIA_TYPE' },
    }));
    renderWithApp(<VerificationPage />);
    await screen.findByRole('button', { name: 'Submit for verification' });
    fill('Casey Creator', '1990-04-05');
    pick('ID document', photo('id.jpg'));
    pick('Selfie', photo('me.jpg'));
    submit();
    expect(await screen.findByText(/Unsupported file type: send photos/)).toBeTruthy();
  });

  it('shows the reason of a rejection with the form again, and the verified state', async () => {
    serve(status('rejected', 'Document unreadable'));
    renderWithApp(<VerificationPage />);
    expect(await screen.findByText(/Reason: Document unreadable/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Submit for verification' })).toBeTruthy();
    cleanup();
    serve(status('verified'));
    renderWithApp(<VerificationPage />);
    expect(await screen.findByText('Your identity is verified')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Submit for verification' })).toBeNull();
  });
});
