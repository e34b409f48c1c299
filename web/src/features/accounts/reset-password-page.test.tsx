import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { ResetPasswordPage } from './reset-password-page';

function submit(password: string, confirm: string) {
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
}

jest.setTimeout(30_000);
afterEach(cleanup);

describe('reset password', () => {
  it('needs the token from the link', async () => {
    const calls = installFakeFetch(() => ({ status: 200, body: {} }));
    renderWithApp(<ResetPasswordPage />, { path: '/reset-password' });
    submit('Secret123', 'Secret123');
    expect(await screen.findByText('Reset token is required')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('checks the password rules and the match', async () => {
    installFakeFetch(() => ({ status: 200, body: {} }));
    renderWithApp(<ResetPasswordPage />, { path: '/reset-password?token=abc' });
    submit('short', 'other');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByText("Passwords don't match")).toBeTruthy();
  });

  it('posts token, password and confirmation', async () => {
    const calls = installFakeFetch(() => ({ status: 200, body: { message: 'Password updated' } }));
    renderWithApp(<ResetPasswordPage />, { path: '/reset-password?token=abc' });
    submit('NewSecret1', 'NewSecret1');
    expect(await screen.findByRole('heading', { name: 'Password Updated' })).toBeTruthy();
    expect(calls[0]).toMatchObject({
      url: '/api/auth/reset-password',
      method: 'POST',
      body: { token: 'abc', password: 'NewSecret1', confirmPassword: 'NewSecret1' },
    });
  });

  it('says so when the link has expired', async () => {
    installFakeFetch(() => ({ status: 400, body: { error: 'This reset link is invalid or has expired' } }));
    renderWithApp(<ResetPasswordPage />, { path: '/reset-password?token=abc' });
    submit('NewSecret1', 'NewSecret1');
    expect(await screen.findByText('This reset link is invalid or has expired')).toBeTruthy();
  });
});
