import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { installFakeFetch, type FakeAnswer } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { ForgotPasswordPage } from './forgot-password-page';

function request(email: string) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
}

jest.setTimeout(30_000);
afterEach(cleanup);

describe('forgot password', () => {
  it('validates the email before sending', async () => {
    const calls = installFakeFetch(() => ({ status: 200, body: {} }));
    renderWithApp(<ForgotPasswordPage />);
    expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeTruthy();
    request('nope');
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it("is replaced by 'Check Your Email' on success", async () => {
    const calls = installFakeFetch(() => ({ status: 200, body: { message: 'ok' } }));
    renderWithApp(<ForgotPasswordPage />);
    request('ada@example.com');
    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeTruthy();
    expect(
      screen.getByText("If an account exists with that email, we've sent you a password reset link."),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe('/login');
    expect(calls[0]).toMatchObject({
      url: '/api/auth/reset-password-request',
      method: 'POST',
      body: { email: 'ada@example.com' },
    });
  });

  it.each<[FakeAnswer, string]>([
    [{ status: 400, body: { error: 'Invalid email format' } }, 'Please enter a valid email address.'],
    [
      { status: 429, body: { error: 'Too many requests' } },
      'Too many reset requests. Please wait before trying again.',
    ],
    [{ status: 500, body: { error: 'Internal server error' } }, 'Unable to process your request. Please try again.'],
  ])('maps a failure to the SPEC §8 text (%j)', async (answer, text) => {
    installFakeFetch(() => answer);
    renderWithApp(<ForgotPasswordPage />);
    request('ada@example.com');
    expect(await screen.findByText(text)).toBeTruthy();
  });
});
