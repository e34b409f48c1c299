import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DUPLICATE_REPORT } from '@contracts/safety';
import { removeToast } from '@/components/toast';
import { installFakeFetch, type FakeAnswer, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { SafetyMenu } from './safety-menu';

jest.setTimeout(30_000);
afterEach(() => {
  cleanup();
  removeToast();
});

const USER_ID = '6f1c2a0e-4b8e-4d5a-9c3e-1a2b3c4d5e6f';
const POST_ID = '0b7e9d3c-1f2a-4c5b-8d6e-7f8a9b0c1d2e';

function serve(answer: (call: FakeCall) => FakeAnswer = () => ({ status: 201, body: {} })): FakeCall[] {
  return installFakeFetch(answer);
}

function openMenuItem(name: string | RegExp) {
  fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
  fireEvent.click(screen.getByRole('menuitem', { name }));
}

describe('safety menu', () => {
  it('explains what blocking does, and blocks only once confirmed', async () => {
    const calls = serve(() => ({ status: 201, body: { message: 'User blocked', userId: USER_ID } }));
    const onBlocked = jest.fn();
    renderWithApp(
      <SafetyMenu
        report={{ targetType: 'user', targetId: USER_ID }}
        user={{ id: USER_ID, name: 'Rita' }}
        onBlocked={onBlocked}
      />,
    );
    openMenuItem('Block Rita');
    const dialog = await screen.findByRole('dialog', { name: 'Block Rita?' });
    expect(within(dialog).getByText('You will never be matched in Lively Chat.')).toBeTruthy();
    expect(within(dialog).getByText('Neither of you can message the other.')).toBeTruthy();
    expect(within(dialog).getByText('They cannot like or comment on your posts.')).toBeTruthy();
    expect(calls).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('User Blocked')).toBeTruthy();
    expect(calls).toEqual([expect.objectContaining({ url: '/api/blocks', method: 'POST', body: { userId: USER_ID } })]);
    expect(onBlocked).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('cancelling the block sends nothing', async () => {
    const calls = serve();
    renderWithApp(
      <SafetyMenu report={{ targetType: 'user', targetId: USER_ID }} user={{ id: USER_ID, name: 'Rita' }} />,
    );
    openMenuItem('Block Rita');
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toHaveLength(0);
  });

  it('needs a reason, then sends the report with its details', async () => {
    const calls = serve(() => ({ status: 201, body: { message: 'Report received', reportId: 'r1' } }));
    renderWithApp(<SafetyMenu report={{ targetType: 'post', targetId: POST_ID }} reportLabel="Report post" />);
    // No user: no Block item.
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    expect(screen.queryByRole('menuitem', { name: /Block/ })).toBeNull();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Report post' }));

    const dialog = await screen.findByRole('dialog', { name: 'Report this post' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Report' }));
    expect(await within(dialog).findByText('Choose a reason')).toBeTruthy();
    expect(calls).toHaveLength(0);

    fireEvent.click(within(dialog).getByLabelText('Spam or scam'));
    fireEvent.change(within(dialog).getByLabelText('Details (optional)'), { target: { value: '  Links to a scam  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Report' }));
    expect(await screen.findByText('Report Sent')).toBeTruthy();
    expect(calls).toEqual([
      expect.objectContaining({
        url: '/api/reports',
        method: 'POST',
        body: { targetType: 'post', targetId: POST_ID, reason: 'spam', details: 'Links to a scam' },
      }),
    ]);
  });

  it('says clearly when the member already reported it (409)', async () => {
    serve(() => ({ status: 409, body: { error: DUPLICATE_REPORT, code: 'CONFLICT' } }));
    renderWithApp(
      <SafetyMenu report={{ targetType: 'user', targetId: USER_ID }} user={{ id: USER_ID, name: 'Rita' }} />,
    );
    openMenuItem('Report');
    const dialog = await screen.findByRole('dialog', { name: 'Report this person' });
    fireEvent.click(within(dialog).getByLabelText('Harassment or bullying'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Report' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(DUPLICATE_REPORT);
    expect((within(dialog).getByRole('button', { name: 'Send Report' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText('Report Sent')).toBeNull();
  });

  it('a failed block says so and keeps the dialog open', async () => {
    serve(() => ({ status: 404, body: { error: 'User not found', code: 'NOT_FOUND' } }));
    renderWithApp(
      <SafetyMenu report={{ targetType: 'user', targetId: USER_ID }} user={{ id: USER_ID, name: 'Rita' }} />,
    );
    openMenuItem('Block Rita');
    const dialog = await screen.findByRole('dialog', { name: 'Block Rita?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('User not found')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Block Rita?' })).toBeTruthy();
  });
});
