import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { removeToast } from '@/components/toast';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { BlockReportMenu } from './block-report-dialog';

jest.setTimeout(30_000);
afterEach(() => {
  cleanup();
  removeToast();
});

const match = { sessionId: 'room_42', peerName: 'Bobby', score: 0.8, isInitiator: true };

describe('chat block and report', () => {
  it('reports the chat session and blocks the partner by it, then moves on', async () => {
    const calls = installFakeFetch((call) =>
      call.url === '/api/reports'
        ? { status: 201, body: { message: 'Report received', reportId: 'r1' } }
        : { status: 201, body: { message: 'User blocked', userId: 'u2' } },
    );
    const onBlocked = jest.fn();
    renderWithApp(<BlockReportMenu match={match} onBlocked={onBlocked} />);

    fireEvent.click(screen.getByRole('button', { name: 'Block or Report' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Report Bobby' }));
    const report = await screen.findByRole('dialog', { name: 'Report this chat' });
    fireEvent.click(within(report).getByLabelText('May be under 18'));
    fireEvent.click(within(report).getByRole('button', { name: 'Send Report' }));
    expect(await screen.findByText('Report Sent')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Block or Report' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Block Bobby' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Block Bobby?' })).getByRole('button', { name: 'Block' }),
    );
    expect(await screen.findByText('User Blocked')).toBeTruthy();
    expect(onBlocked).toHaveBeenCalledWith('room_42');
    expect(calls.map(({ url, body }) => ({ url, body }))).toEqual([
      { url: '/api/reports', body: { targetType: 'chat_session', targetId: 'room_42', reason: 'underage' } },
      { url: '/api/chat/sessions/room_42/block', body: {} },
    ]);
  });
});
