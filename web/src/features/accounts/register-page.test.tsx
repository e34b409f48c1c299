import '@/test-support/jsdom-setup';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { removeToast } from '@/components/toast';
import { installFakeFetch, type FakeAnswer, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { RegisterPage } from './register-page';

const valid = {
  'First name': 'Ada',
  'Last name': 'Lovelace',
  Email: 'Ada@Example.com',
  Password: 'Secret123',
  'Confirm password': 'Secret123',
  'Card number': '4242424242424242',
  'Expiration (MM/YY)': '1230',
  CVV: '123',
};

function fill(values: Partial<Record<keyof typeof valid, string>>) {
  for (const [label, value] of Object.entries(values))
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function submit() {
  fireEvent.click(screen.getByRole('button', { name: 'Create Account & Subscribe ($1.99/month)' }));
}

function renderPage() {
  return renderWithApp(
    <Routes>
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/home" element={<h1>home</h1>} />
    </Routes>,
    { path: '/register' },
  );
}

jest.setTimeout(60_000);
afterEach(() => {
  cleanup();
  removeToast();
  jest.useRealTimers();
});

describe('register form', () => {
  it('says what is missing, card fields included, and sends nothing', async () => {
    const calls = installFakeFetch(() => ({ status: 200, body: {} }));
    renderPage();
    submit();
    for (const text of [
      'First name is required',
      'Last name is required',
      'Email is required',
      'Password must be at least 8 characters',
      'Please complete all payment fields',
    ]) {
      expect(await screen.findByText(text)).toBeTruthy();
    }
    expect(calls).toHaveLength(0);
  });

  it('checks password strength and the confirmation', async () => {
    installFakeFetch(() => ({ status: 200, body: {} }));
    renderPage();
    fill({ ...valid, Password: 'alllowercase1', 'Confirm password': 'different' });
    submit();
    expect(
      await screen.findByText(
        'Password must contain at least one lowercase letter, one uppercase letter, and one number',
      ),
    ).toBeTruthy();
    expect(screen.getByText("Passwords don't match")).toBeTruthy();
  });

  it('runs the manual card checks', async () => {
    const calls = installFakeFetch(() => ({ status: 200, body: {} }));
    renderPage();
    fill({ ...valid, 'Card number': '4242 4242', 'Expiration (MM/YY)': '1', CVV: '12' });
    submit();
    expect(await screen.findByText('Please enter a valid card number')).toBeTruthy();
    expect(screen.getByText('Please enter expiration in MM/YY format')).toBeTruthy();
    expect(screen.getByText('Please enter a valid CVV')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('refuses an expired card with a clear message, before anything is sent', async () => {
    const calls = installFakeFetch(() => ({ status: 200, body: {} }));
    renderPage();
    fill({ ...valid, 'Expiration (MM/YY)': '0120' });
    submit();
    expect(await screen.findByText('Your card has expired')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('formats the card number and expiry as typed', () => {
    renderPage();
    fill({ 'Card number': '4242424242424242', 'Expiration (MM/YY)': '1230' });
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe('4242 4242 4242 4242');
    expect((screen.getByLabelText('Expiration (MM/YY)') as HTMLInputElement).value).toBe('12/30');
  });

  it.each<[FakeAnswer, string]>([
    [
      { status: 409, body: { error: 'An account with this email already exists', code: 'CONFLICT' } },
      'An account with this email already exists. Please use a different email or try logging in.',
    ],
    [{ status: 400, body: { error: 'Invalid email format' } }, 'Please enter a valid email address.'],
    [
      { status: 429, body: { error: 'Too many requests' } },
      'Too many registration attempts. Please wait before trying again.',
    ],
    [
      { status: 400, body: { error: 'Invalid input', code: 'VALIDATION_ERROR' } },
      'Please check all fields and try again.',
    ],
    [{ status: 500, body: { error: 'Internal server error' } }, 'Registration failed. Please try again.'],
    [{ status: 402, body: { error: 'Your card was declined.', code: 'PAYMENT_DECLINED' } }, 'Your card was declined.'],
  ])('maps a failed registration to the SPEC §8 text (%j)', async (answer, text) => {
    installFakeFetch(() => answer);
    renderPage();
    fill(valid);
    submit();
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('asks for the user again while the server has not caught up, then opens /home', async () => {
    let userCalls = 0;
    installFakeFetch((call: FakeCall) => {
      if (call.url === '/api/auth/register') return { status: 201, body: { message: 'ok' } };
      userCalls += 1;
      return userCalls < 3
        ? { status: 401, body: { error: 'Unauthorized' } }
        : { status: 200, body: { id: 'u1', subscriptionStatus: 'active' } };
    });
    renderPage();
    fill(valid);
    submit();
    expect(await screen.findByRole('heading', { name: 'home' }, { timeout: 10_000 })).toBeTruthy();
    expect(userCalls).toBe(3);
    // The user's own session lookup is not a lost session: no logged-out toast.
    expect(screen.queryByText('You are logged out. Logging in again...')).toBeNull();
  });

  it('sends a dev_tok_ placeholder, welcomes the user and opens /home after 2 s', async () => {
    let userCalls = 0;
    const calls = installFakeFetch((call: FakeCall) => {
      if (call.url === '/api/auth/register')
        return { status: 201, body: { message: 'Your account is ready and your $1.99 membership is active.' } };
      userCalls += 1;
      return { status: 200, body: { id: 'u1', subscriptionStatus: 'active' } };
    });
    jest.useFakeTimers();
    renderPage();
    fill(valid);
    submit();
    expect(await screen.findByText('Welcome to Lively!')).toBeTruthy();
    expect(screen.getByText('Your account is ready and your $1.99 membership is active.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Creating Account & Processing Payment...' })).toBeTruthy();
    const sent = calls.find((c) => c.url === '/api/auth/register')!;
    expect(sent.body).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'Ada@Example.com',
      password: 'Secret123',
      confirmPassword: 'Secret123',
    });
    expect((sent.body as { paymentToken: string }).paymentToken).toMatch(/^dev_tok_[A-Za-z0-9_-]{24}$/);
    // The card itself never leaves the browser.
    expect(JSON.stringify(sent.body)).not.toContain('4242');
    expect(screen.getByTestId('location').textContent).toBe('/register');
    await act(async () => {
      jest.advanceTimersByTime(2000);
    });
    jest.useRealTimers();
    expect(await screen.findByRole('heading', { name: 'home' })).toBeTruthy();
    expect(userCalls).toBe(1);
  });
});
