import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { Message } from '@contracts/messaging';
import { removeToast } from '@/components/toast';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { ThreadSafetyMenu } from './thread-safety-menu';

jest.setTimeout(30_000);
afterEach(() => {
  cleanup();
  removeToast();
});

const ME = '11111111-1111-4111-8111-111111111111';
const RITA = '22222222-2222-4222-8222-222222222222';
const message = (id: string, senderId: string, content: string, createdAt: string): Message => ({
  id,
  senderId,
  receiverId: senderId === ME ? RITA : ME,
  content,
  mediaUrl: null,
  isPaid: false,
  price: null,
  isUnlocked: false,
  locked: false,
  createdAt,
  media: [],
});
const THEIRS = '33333333-3333-4333-8333-333333333333';
const thread = [
  message('44444444-4444-4444-8444-444444444444', RITA, 'Hello there', '2026-01-01T10:00:00.000Z'),
  message('55555555-5555-4555-8555-555555555555', ME, 'Hi', '2026-01-01T10:01:00.000Z'),
  message(THEIRS, RITA, 'Send me your card number', '2026-01-01T10:02:00.000Z'),
];

describe('thread safety menu', () => {
  it("reports one of the other person's messages, picked from the newest", async () => {
    const calls = installFakeFetch((call) =>
      call.url === `/api/messages/${RITA}`
        ? { status: 200, body: thread }
        : { status: 201, body: { message: 'Report received', reportId: 'r1' } },
    );
    renderWithApp(<ThreadSafetyMenu otherUserId={RITA} otherName="Rita" />);
    fireEvent.click(screen.getByRole('button', { name: 'More actions for Rita' }));
    expect(screen.getByRole('menuitem', { name: 'Report Rita' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Block Rita' })).toBeTruthy();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Report a message' }));

    const picker = await screen.findByRole('dialog', { name: 'Which message?' });
    // Only theirs, newest first.
    const choices = await within(picker).findAllByRole('button', { name: /2026/ });
    expect(choices.map((choice) => choice.textContent?.replace(/\d.*$/, ''))).toEqual([
      'Send me your card number',
      'Hello there',
    ]);
    fireEvent.click(within(picker).getByRole('button', { name: /Send me your card number/ }));

    const report = await screen.findByRole('dialog', { name: 'Report this message' });
    fireEvent.click(within(report).getByLabelText('Spam or scam'));
    fireEvent.click(within(report).getByRole('button', { name: 'Send Report' }));
    expect(await screen.findByText('Report Sent')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')).toEqual(
      expect.objectContaining({
        url: '/api/reports',
        body: { targetType: 'message', targetId: THEIRS, reason: 'spam' },
      }),
    );
  });
});
