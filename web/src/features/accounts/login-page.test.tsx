import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { removeToast } from '@/components/toast';
import { installFakeFetch, type FakeAnswer } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { LoginPage } from './login-page';

function fill(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

jest.setTimeout(30_000);
afterEach(cleanup);

describe('login form', () => {
  it('says which fields are missing', async () => {
    const calls = installFakeFetch(() => ({ status: 200, body: {} }));
    renderWithApp(<LoginPage afterLogin={() => undefined} />);
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('rejects an invalid email', async () => {
    installFakeFetch(() => ({ status: 200, body: {} }));
    renderWithApp(<LoginPage afterLogin={() => undefined} />);
    fill('not-an-email', 'whatever');
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
  });

  it('shows and hides the password', () => {
    renderWithApp(<LoginPage afterLogin={() => undefined} />);
    const input = screen.getByLabelText('Password') as HTMLInputElement;
    expect(input.type).toBe('password');
    fireEvent.click(screen.getByLabelText('Show password'));
    expect(input.type).toBe('text');
  });

  it.each<[FakeAnswer, string]>([
    [
      { status: 401, body: { error: 'Invalid email or password', code: 'UNAUTHORIZED' } },
      'Invalid email or password. Please try again.',
    ],
    [
      { status: 423, body: { error: 'Account temporarily locked', code: 'LOCKED' } },
      'Account temporarily locked due to failed login attempts. Please try again later.',
    ],
    [
      { status: 403, body: { error: 'Account has been deactivated' } },
      'Your account has been deactivated. Please contact support.',
    ],
    [
      { status: 429, body: { error: 'Too many requests' } },
      'Too many login attempts. Please wait before trying again.',
    ],
    [{ status: 500, body: { error: 'Internal server error' } }, 'Login failed. Please try again.'],
  ])('maps a failed login to the SPEC §8 text (%j)', async (answer, text) => {
    installFakeFetch(() => answer);
    renderWithApp(<LoginPage afterLogin={() => undefined} />);
    fill('ada@example.com', 'Secret123');
    expect(await screen.findByText(text)).toBeTruthy();
    // A wrong password is not a lost session: no central 401 redirect toast.
    expect(screen.queryByText('You are logged out. Logging in again...')).toBeNull();
  });

  it('signs in, loads / and welcomes the user after that full page load', async () => {
    const calls = installFakeFetch(() => ({ status: 200, body: { ok: true } }));
    const afterLogin = jest.fn();
    renderWithApp(<LoginPage afterLogin={afterLogin} />);
    fill('Ada@Example.com', 'Secret123');
    await waitFor(() => expect(afterLogin).toHaveBeenCalled());
    // The full page load: everything in memory is gone, the app starts again.
    cleanup();
    removeToast();
    renderWithApp(<p>Home</p>);
    expect(await screen.findByText('Welcome back!')).toBeTruthy();
    expect(screen.getByText("You've been logged in successfully.")).toBeTruthy();
    // Shown once: a later load does not welcome again.
    cleanup();
    removeToast();
    renderWithApp(<p>Home</p>);
    expect(screen.queryByText('Welcome back!')).toBeNull();
    expect(calls[0]).toMatchObject({
      url: '/api/auth/login',
      method: 'POST',
      body: { email: 'Ada@Example.com', password: 'Secret123' },
    });
    expect(calls[0]!.headers['X-Client-Id']).toMatch(/^[A-Za-z0-9_-]{21}$/);
  });

  it('reads Signing In... while pending', async () => {
    let release: (answer: FakeAnswer) => void = () => undefined;
    installFakeFetch(() => new Promise<FakeAnswer>((resolve) => (release = resolve)));
    renderWithApp(<LoginPage afterLogin={() => undefined} />);
    fill('ada@example.com', 'Secret123');
    const button = await screen.findByRole('button', { name: 'Signing In...' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    release({ status: 401, body: { error: 'Invalid email or password' } });
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
  });

  describe('second step (two-factor on)', () => {
    const code = () => screen.getByLabelText('Authentication code');

    it('asks for the authentication code after the password and signs in with it', async () => {
      const calls = installFakeFetch((call) =>
        call.url.endsWith('/api/auth/login')
          ? { status: 200, body: { twoFactorRequired: true } }
          : { status: 200, body: {} },
      );
      const afterLogin = jest.fn();
      renderWithApp(<LoginPage afterLogin={afterLogin} />);
      fill('ada@example.com', 'Secret123');
      await screen.findByLabelText('Authentication code');
      expect(afterLogin).not.toHaveBeenCalled();
      fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByText('Enter the 6-digit code from your authenticator app')).toBeTruthy();
      fireEvent.change(code(), { target: { value: '123 456' } });
      expect(screen.queryByText('Enter the 6-digit code from your authenticator app')).toBeNull(); // errors clear
      fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
      await waitFor(() => expect(afterLogin).toHaveBeenCalled());
      expect(calls.at(-1)).toMatchObject({ url: '/api/auth/login/2fa', method: 'POST', body: { code: '123456' } });
    });

    it('shows a wrong code, takes a recovery code instead, and starts over when the sign-in expired', async () => {
      let second = 0;
      const calls = installFakeFetch((call) => {
        if (call.url.endsWith('/api/auth/login')) return { status: 200, body: { twoFactorRequired: true } };
        second += 1;
        if (second === 1)
          return { status: 400, body: { error: 'Invalid authentication code', code: 'VALIDATION_ERROR' } };
        return { status: 401, body: { error: 'Your sign-in expired. Please sign in again.', code: 'SIGN_IN_EXPIRED' } };
      });
      renderWithApp(<LoginPage afterLogin={() => undefined} />);
      fill('ada@example.com', 'Secret123');
      fireEvent.change(await screen.findByLabelText('Authentication code'), { target: { value: '000000' } });
      fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByText('Invalid authentication code')).toBeTruthy();

      fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
      expect(screen.queryByText('Invalid authentication code')).toBeNull();
      fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'abcde-fghjk' } });
      fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByText('Your sign-in expired. Please sign in again.')).toBeTruthy();
      expect(calls.at(-1)?.body).toEqual({ code: 'abcde-fghjk' });
      // Back at the first step, its texts unchanged, and no central 401 redirect.
      expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
      expect(screen.getByText('Forgot your password?')).toBeTruthy();
      expect(screen.queryByText('You are logged out. Logging in again...')).toBeNull();
    });
  });
});
