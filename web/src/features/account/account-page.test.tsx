import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccountExport } from '@contracts/account';
import { removeToast } from '@/components/toast';
import { browser } from '@/lib/api';
import { installFakeFetch, type FakeCall, type FakeAnswer } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { AccountPage } from './account-page';

jest.setTimeout(30_000);
afterEach(() => {
  cleanup();
  removeToast();
  jest.restoreAllMocks();
});

const USER = {
  id: 'u-1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: null,
  profileImageUrl: null,
  role: 'subscriber',
  isCreator: false,
  ageVerified: true,
  subscriptionStatus: 'active',
  lastPaymentDate: null,
  subscriptionEndDate: null,
};

/** A small export: the page saves whatever the server sent, as it came. */
const EXPORT: AccountExport = {
  exportedAt: '2025-01-02T03:04:05.000Z',
  profile: null,
  chatProfile: null,
  chatPreferences: null,
  creator: null,
  posts: [],
  comments: [],
  messagesSent: [],
  messagesReceived: [],
  subscriptions: [],
  payments: [],
  tipsGiven: [],
  conversions: [],
  wallets: [],
  payouts: [],
  reports: [],
  blocks: [],
};

/** The API around the page: the user, two-factor on or off, and the two account calls answered per test. */
function server(
  answers: { export?: () => FakeAnswer; delete?: (call: FakeCall) => FakeAnswer; twoFactor?: boolean } = {},
) {
  return installFakeFetch((call) => {
    if (call.url === '/api/auth/user') return { status: 200, body: USER };
    if (call.url === '/api/auth/2fa')
      return { status: 200, body: { enabled: answers.twoFactor ?? false, recoveryCodesLeft: 10 } };
    if (call.url === '/api/account/export') return answers.export?.() ?? { status: 200, body: EXPORT };
    if (call.url === '/api/account/delete')
      return answers.delete?.(call) ?? { status: 200, body: { message: 'Deleted' } };
    return { status: 404, body: { error: 'No such endpoint' } };
  });
}

/** Catches the download: the Blob behind the object URL and the link clicked. */
function watchDownloads() {
  const blobs: Blob[] = [];
  const links: Array<{ href: string; download: string }> = [];
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      blobs.push(blob);
      return 'blob:lively-data';
    },
    revokeObjectURL: () => undefined,
  });
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    links.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
  return { blobs, links };
}

const readText = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

/** Opens the dialog and ticks "I understand"; returns the dialog. */
async function openDeleteDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Delete my account' }));
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByRole('button', { name: 'Delete my account' })).toHaveProperty('disabled', true);
  fireEvent.click(within(dialog).getByLabelText('I understand this cannot be undone'));
  return dialog;
}

function submit(dialog: HTMLElement) {
  const button = within(dialog).getByRole('button', { name: 'Delete my account' });
  return waitFor(() => expect(button).toHaveProperty('disabled', false)).then(() => fireEvent.click(button));
}

describe('account page', () => {
  it('has its title and both sections', async () => {
    server();
    renderWithApp(<AccountPage />);
    expect(document.title).toBe('Account · Lively');
    expect(screen.getByRole('heading', { name: 'Download your data' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Delete your account' })).toBeTruthy();
    expect(screen.getByText(/Deleted user/)).toBeTruthy();
  });

  it('downloads the export as lively-data.json on a 200', async () => {
    server();
    const { blobs, links } = watchDownloads();
    renderWithApp(<AccountPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(links).toEqual([{ href: 'blob:lively-data', download: 'lively-data.json' }]));
    expect(JSON.parse(await readText(blobs[0]))).toEqual(EXPORT);
    expect(await screen.findByText('Download started')).toBeTruthy();
    // The link did its job and is gone.
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('shows the server message on a 202 (a large account is prepared)', async () => {
    const message = 'Your file is being prepared. We will notify you when it is ready.';
    server({ export: () => ({ status: 202, body: { status: 'preparing', exportId: 'exp-1', message } }) });
    const { links } = watchDownloads();
    renderWithApp(<AccountPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(links).toEqual([]);
  });

  it('offers the prepared file opened from its notification', async () => {
    server();
    const id = '0b7d7c52-5a43-4f5e-9d3e-1f1b8a0f2c11';
    renderWithApp(<AccountPage />, { path: `/account?export=${id}` });
    expect(await screen.findByText('Your data file is ready.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(`/api/account/exports/${id}`);
  });

  it('shows an error with Retry when the export fails', async () => {
    let fail = true;
    server({
      export: () => (fail ? { status: 500, body: { error: 'Internal server error' } } : { status: 200, body: EXPORT }),
    });
    const { links } = watchDownloads();
    renderWithApp(<AccountPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText('Internal server error')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(links).toHaveLength(1));
    expect(screen.queryByText('Internal server error')).toBeNull();
  });

  it('asks for the password before calling the server', async () => {
    const calls = server();
    renderWithApp(<AccountPage />);
    const dialog = await openDeleteDialog();
    expect(within(dialog).queryByLabelText('Authentication or recovery code')).toBeNull();
    await submit(dialog);
    expect(await within(dialog).findByText('Password is required')).toBeTruthy();
    expect(calls.some((call) => call.url === '/api/account/delete')).toBe(false);
  });

  it('shows a wrong password as the server says it, without the lost-session redirect', async () => {
    server({ delete: () => ({ status: 401, body: { error: 'Incorrect password', code: 'UNAUTHORIZED' } }) });
    const assign = jest.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderWithApp(<AccountPage />);
    const dialog = await openDeleteDialog();
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'wrong' } });
    await submit(dialog);
    expect(await within(dialog).findByText('Incorrect password')).toBeTruthy();
    expect(screen.queryByText('You are logged out. Logging in again...')).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  it("shows a 409's reason verbatim", async () => {
    const reason = 'Your balance of $12.00 must be paid out before the account can be deleted.';
    server({ delete: () => ({ status: 409, body: { error: reason, code: 'CONFLICT' } }) });
    renderWithApp(<AccountPage />);
    const dialog = await openDeleteDialog();
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Secret123' } });
    await submit(dialog);
    expect(await within(dialog).findByText(reason)).toBeTruthy();
  });

  it('asks for the two-factor code when two-factor is on, and sends it', async () => {
    const calls = server({ twoFactor: true });
    jest.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderWithApp(<AccountPage />);
    const dialog = await openDeleteDialog();
    const code = await within(dialog).findByLabelText('Authentication or recovery code');
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Secret123' } });
    await submit(dialog);
    expect(
      await within(dialog).findByText('Enter the code from your authenticator app or a recovery code'),
    ).toBeTruthy();
    fireEvent.change(code, { target: { value: '123 456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/account/delete')).toBe(true));
    expect(calls.find((call) => call.url === '/api/account/delete')?.body).toEqual({
      password: 'Secret123',
      code: '123456',
    });
  });

  it('on success loads /login in full and says so after that load', async () => {
    const calls = server();
    const assign = jest.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderWithApp(<AccountPage />);
    const dialog = await openDeleteDialog();
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'Secret123' } });
    await submit(dialog);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/login'));
    expect(calls.find((call) => call.url === '/api/account/delete')?.body).toEqual({ password: 'Secret123' });
    // The full page load: everything in memory is gone, the app starts again.
    cleanup();
    removeToast();
    renderWithApp(<p>Landing</p>);
    expect(await screen.findByText('Your account has been deleted')).toBeTruthy();
  });
});
