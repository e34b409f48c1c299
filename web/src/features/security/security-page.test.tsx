import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeFetch, type FakeCall, type FakeAnswer } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { SecurityPage } from './security-page';

jest.setTimeout(30_000);
afterEach(cleanup);

const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
const SETUP = {
  otpauthUrl: 'otpauth://totp/Lively:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Lively',
  qrDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
};

/** A fake server holding the two-factor state; `enable` answers per call. */
function server(enableAnswer: (call: FakeCall) => FakeAnswer) {
  let status = { enabled: false, recoveryCodesLeft: 0 };
  return installFakeFetch((call) => {
    if (call.url.endsWith('/api/auth/2fa/setup')) return { status: 200, body: SETUP };
    if (call.url.endsWith('/api/auth/2fa/enable')) {
      const answer = enableAnswer(call);
      if (answer.status === 200) status = { enabled: true, recoveryCodesLeft: 10 };
      return answer;
    }
    if (call.url.endsWith('/api/auth/2fa/disable')) {
      status = { enabled: false, recoveryCodesLeft: 0 };
      return { status: 200, body: status };
    }
    return { status: 200, body: status };
  });
}

describe('security page', () => {
  it('turns two-factor on: QR code and manual key, a code, then the recovery codes once', async () => {
    const calls = server((call) =>
      (call.body as { code: string }).code === '123456'
        ? { status: 200, body: { recoveryCodes: CODES } }
        : { status: 400, body: { error: 'Invalid authentication code', code: 'VALIDATION_ERROR' } },
    );
    renderWithApp(<SecurityPage />);
    expect(await screen.findByText('Off')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor authentication' }));
    const qr = (await screen.findByAltText('QR code for your authenticator app')) as HTMLImageElement;
    expect(qr.src).toBe(SETUP.qrDataUrl);
    expect(screen.getByTestId('manual-key').textContent).toBe('JBSW Y3DP EHPK 3PXP');

    fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: '999999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    expect(await screen.findByText('Invalid authentication code')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: '123456' } });
    expect(screen.queryByText('Invalid authentication code')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Verify and turn on' }));

    const list = await screen.findByTestId('recovery-codes');
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(list.textContent).toContain(CODES[9]);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'I saved them' }));
    expect(await screen.findByText('Recovery codes left: 10 of 10')).toBeTruthy();
    expect(screen.queryByTestId('recovery-codes')).toBeNull(); // shown once
    expect(screen.getByText('On')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([
      '/api/auth/2fa/setup',
      '/api/auth/2fa/enable',
      '/api/auth/2fa/enable',
    ]);
  });

  it('turns two-factor off with a code', async () => {
    const calls = server(() => ({ status: 200, body: { recoveryCodes: CODES } }));
    renderWithApp(<SecurityPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on two-factor authentication' }));
    fireEvent.change(await screen.findByLabelText('Authentication code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    fireEvent.click(await screen.findByRole('button', { name: 'I saved them' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off two-factor authentication' }));
    fireEvent.change(screen.getByLabelText('Authentication or recovery code'), { target: { value: 'abcd1-efgh1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(screen.getByText('Off')).toBeTruthy());
    expect(calls.find((call) => call.url.endsWith('/disable'))?.body).toEqual({ code: 'abcd1-efgh1' });
  });
});
