import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { RefundDialog } from './refund-dialog';

jest.setTimeout(30_000);
afterEach(cleanup);

const payment = { id: 'p1', amount: '1.99', refunded: '0.50', refundable: '1.49', status: 'partially_refunded' };

function open(onRefunded = jest.fn()) {
  renderWithApp(<RefundDialog payment={payment} open onClose={() => undefined} onRefunded={onRefunded} />);
  return onRefunded;
}

describe('refund dialog', () => {
  it('refunds part of a payment with a reason, in cents', async () => {
    const calls = installFakeFetch(() => ({
      status: 200,
      body: { paymentId: 'p1', sequence: 2, amount: '0.40', refundedTotal: '0.90', full: false, gatewayRefundId: 're' },
    }));
    const onRefunded = open();
    fireEvent.change(screen.getByLabelText(/Amount/), { target: { value: '0.40' } });
    fireEvent.change(screen.getByLabelText(/Reason/), { target: { value: 'late delivery' } });
    fireEvent.click(screen.getByRole('button', { name: 'Refund $0.40' }));
    await waitFor(() => expect(onRefunded).toHaveBeenCalled());
    const call = calls.find((c) => c.url === '/api/admin/payments/p1/refund')!;
    expect(call.body).toEqual({ amountCents: 40, reason: 'late delivery' });
    expect(onRefunded.mock.calls[0][0]).toMatchObject({ refunded: '0.90', refundable: '1.09' });
  });

  it('sends the whole rest without an amount, and refuses more than is refundable', async () => {
    const calls = installFakeFetch(() => ({
      status: 200,
      body: { paymentId: 'p1', sequence: 2, amount: '1.49', refundedTotal: '1.99', full: true, gatewayRefundId: 're' },
    }));
    const onRefunded = open();
    fireEvent.change(screen.getByLabelText(/Amount/), { target: { value: '1.50' } });
    fireEvent.change(screen.getByLabelText(/Reason/), { target: { value: 'x' } });
    expect(screen.getByText('At most $1.49 can be refunded')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Refund \$/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/Amount/), { target: { value: '1.49' } });
    fireEvent.click(screen.getByRole('button', { name: 'Refund $1.49' }));
    await waitFor(() => expect(onRefunded).toHaveBeenCalled());
    expect(calls.find((c) => c.url.endsWith('/refund'))!.body).toEqual({ reason: 'x' });
    expect(onRefunded.mock.calls[0][0]).toMatchObject({ status: 'refunded', refundable: '0.00' });
  });

  it('shows the server’s refusal', async () => {
    installFakeFetch(() => ({
      status: 422,
      body: { error: 'The refund exceeds what remains refundable ($1.00)', code: 'UNPROCESSABLE' },
    }));
    open();
    fireEvent.change(screen.getByLabelText(/Reason/), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Refund $1.49' }));
    expect(await screen.findByText('The refund exceeds what remains refundable ($1.00)')).toBeTruthy();
  });
});
