import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { TipButton } from './tip-button';

afterEach(cleanup);

function serve(tipAnswer: (call: FakeCall) => { status: number; body: unknown }) {
  return installFakeFetch((call) => {
    if (call.url === '/api/crypto/balance') return { status: 200, body: { totalUsd: '12.50', conversions: [] } };
    if (call.url === '/api/tips') return tipAnswer(call);
    return { status: 404, body: { error: 'no' } };
  });
}

/** Opens the dialog, which loads on the first click. */
const open = async () => {
  renderWithApp(<TipButton creatorId="c1" creatorName="Cora" postId="p1" />);
  fireEvent.click(screen.getByRole('button', { name: 'Tip' }));
  await screen.findByRole('dialog', {}, { timeout: 15_000 });
};

describe('tip dialog', () => {
  it('tips a preset amount by card with a message, on the post it was opened from', async () => {
    const calls = serve(() => ({ status: 201, body: { id: 't1' } }));
    await open();
    fireEvent.click(screen.getByRole('button', { name: '$10' }));
    fireEvent.change(screen.getByLabelText('Message (optional)'), { target: { value: 'Great set!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Tip $10.00' }));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/tips')).toBe(true));
    expect(calls.find((call) => call.url === '/api/tips')?.body).toEqual({
      creatorId: 'c1',
      amountCents: 1000,
      postId: 'p1',
      message: 'Great set!',
      source: 'card',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('takes a custom amount from $1 to $500 only, and pays from the balance when chosen', async () => {
    const calls = serve(() => ({ status: 201, body: { id: 't2' } }));
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Other' }));
    const amount = screen.getByLabelText('Custom amount');
    fireEvent.change(amount, { target: { value: '500.01' } });
    expect(screen.getByText('A tip is $1.00 to $500.00')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Tip' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(amount, { target: { value: '2.50' } });
    fireEvent.click(await screen.findByLabelText('USD balance ($12.50)'));
    fireEvent.click(screen.getByRole('button', { name: 'Tip $2.50' }));
    await waitFor(() =>
      expect(calls.find((call) => call.url === '/api/tips')?.body).toMatchObject({
        amountCents: 250,
        source: 'balance',
      }),
    );
  });

  it('says why a tip was refused and stays open', async () => {
    serve(() => ({
      status: 402,
      body: { error: 'Insufficient balance: this tip is $5.00 and your balance is $1.00.', code: 'PAYMENT_DECLINED' },
    }));
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Tip $5.00' }));
    expect(await screen.findByText(/Insufficient balance: this tip is \$5\.00/)).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
