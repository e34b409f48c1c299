import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeFetch, type FakeAnswer, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { shortAddress } from './crypto-api';
import { WALLET_BACKGROUND, WalletPage } from './wallet-page';

jest.setTimeout(30_000);
afterEach(cleanup);

const preview = (net: string, valid: boolean) => ({
  cryptoAmount: '20.00000000',
  cryptoType: 'USDC',
  exchangeRate: '1.0000',
  grossUsdAmount: '20.00',
  serviceFeeAmount: '0.60',
  serviceFeePercent: '3.00',
  netUsdAmount: net,
  isValidMinimum: valid,
});

function serve(routes: Record<string, FakeAnswer | ((call: FakeCall) => FakeAnswer)>) {
  const defaults: Record<string, FakeAnswer> = {
    'GET /api/crypto/rates': {
      status: 200,
      body: { USDC: '1.0001', USDT: '0.9998', updatedAt: new Date().toISOString() },
    },
    'GET /api/crypto/balance': { status: 200, body: { totalUsd: '0.00', conversions: [] } },
    'GET /api/crypto/conversions': { status: 200, body: [] },
    'GET /api/crypto/wallets': { status: 200, body: [] },
  };
  return installFakeFetch((call) => {
    const route = routes[`${call.method} ${call.url}`] ?? defaults[`${call.method} ${call.url}`];
    if (!route) return { status: 404, body: { error: 'no route' } };
    return typeof route === 'function' ? route(call) : route;
  });
}

const fill = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('wallet page', () => {
  it('shows the rates to 4 decimals, no balance card at 0, and the SPEC empty states', async () => {
    serve({});
    renderWithApp(<WalletPage />);
    expect((await screen.findByTestId('rate-USDC')).textContent).toBe('$1.0001');
    expect(screen.getByTestId('rate-USDT').textContent).toBe('$0.9998');
    expect(screen.queryByTestId('balance-card')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Wallets' }));
    expect(await screen.findByText('No wallets registered yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    expect(await screen.findByText('No conversion history yet')).toBeTruthy();
  });

  it('shows the rates error and the green balance card with the number of conversions', async () => {
    const record = {
      id: 7,
      transactionId: 't1',
      cryptoType: 'USDC',
      cryptoAmount: '20.00000000',
      usdAmount: '20.00',
      netAmount: '19.40',
      exchangeRate: '1.0000',
      feeAmount: '0.60',
      status: 'completed',
      createdAt: new Date().toISOString(),
      usedForSubscription: false,
      subscriptionMonths: null,
    };
    serve({
      'GET /api/crypto/rates': { status: 500, body: '' },
      'GET /api/crypto/balance': { status: 200, body: { totalUsd: '19.40', conversions: [record] } },
      'GET /api/crypto/conversions': {
        status: 200,
        body: [record, { ...record, id: null, transactionId: 't0', status: 'failed' }],
      },
    });
    renderWithApp(<WalletPage />);
    expect(await screen.findByText('Unable to load exchange rates. Please try again later.')).toBeTruthy();
    expect((await screen.findByTestId('balance-total')).textContent).toBe('$19.40');
    expect(screen.getByText(/From 1 conversion/)).toBeTruthy();
    // History shows each conversion's number (none for one from before numbers existed).
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    await screen.findAllByTestId('conversion-row');
    expect(screen.getAllByTestId('conversion-id').map((cell) => cell.textContent)).toEqual(['#7', '—']);
  });

  it('validates the amount, previews, hides Confirm below the minimum, and confirms with an Idempotency-Key', async () => {
    let valid = false;
    const calls = serve({
      'POST /api/crypto/calculate': () => ({ status: 200, body: preview(valid ? '19.40' : '9.70', valid) }),
      'POST /api/crypto/convert': {
        status: 202,
        body: {
          message: 'Conversion initiated: 20.00000000 USDC to $19.40 USD after fees',
          conversionId: 7,
          transactionId: 't1',
          status: 'pending',
          preview: preview('19.40', true),
        },
      },
    });
    renderWithApp(<WalletPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Calculate Conversion' }));
    expect(await screen.findByText('Invalid Amount')).toBeTruthy();
    expect(screen.getByText('Please enter a valid crypto amount')).toBeTruthy();

    fill('crypto-amount', '10');
    fireEvent.click(screen.getByRole('button', { name: 'Calculate Conversion' }));
    expect(
      await screen.findByText('Minimum conversion is $10 USD after fees. Please increase your crypto amount'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm Conversion' })).toBeNull();

    valid = true;
    fill('crypto-amount', '20');
    fireEvent.click(screen.getByRole('button', { name: 'Calculate Conversion' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm Conversion' }));
    expect(await screen.findByText('Incomplete Information')).toBeTruthy();
    expect(screen.getByText('Please calculate preview and enter wallet address')).toBeTruthy();

    fill('wallet-address', '0xabc123def456');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Conversion' }));
    await screen.findByTestId('conversion-initiated');
    const convert = calls.find((c) => c.url === '/api/crypto/convert')!;
    expect(convert.body).toEqual({ cryptoAmount: '20.00000000', cryptoType: 'USDC', walletAddress: '0xabc123def456' });
    expect(convert.headers['Idempotency-Key']).toMatch(/^[\w-]{10,}$/);
    expect((screen.getByTestId('crypto-amount') as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('conversion-preview')).toBeNull();
  });

  it('reports calculation and conversion errors with the server message or the fallback', async () => {
    serve({
      'POST /api/crypto/calculate': {
        status: 400,
        body: { error: 'Invalid crypto amount format', code: 'VALIDATION_ERROR' },
      },
    });
    renderWithApp(<WalletPage />);
    fill('crypto-amount', '1.123456789');
    fireEvent.click(await screen.findByRole('button', { name: 'Calculate Conversion' }));
    expect(await screen.findByText('Calculation Error')).toBeTruthy();
    expect(screen.getByText('Invalid crypto amount format')).toBeTruthy();
    cleanup();

    serve({
      'POST /api/crypto/calculate': { status: 200, body: preview('19.40', true) },
      'POST /api/crypto/convert': { status: 500, body: '' },
    });
    renderWithApp(<WalletPage />);
    fill('crypto-amount', '20');
    fill('wallet-address', '0xabc');
    fireEvent.click(await screen.findByRole('button', { name: 'Calculate Conversion' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm Conversion' }));
    expect(await screen.findByText('Conversion Failed')).toBeTruthy();
    expect(screen.getByText('Failed to process conversion')).toBeTruthy();
  });

  it('registers wallets with the SPEC messages', async () => {
    serve({
      'POST /api/crypto/wallets': { status: 409, body: { error: 'This wallet address is already registered' } },
    });
    renderWithApp(<WalletPage />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Wallets' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Register Wallet' }));
    expect(await screen.findByText('Invalid Address')).toBeTruthy();
    fill('new-wallet-address', '0xabc123');
    fireEvent.click(screen.getByRole('button', { name: 'Register Wallet' }));
    expect(await screen.findByText('Wallet Creation Failed')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('This wallet address is already registered')).toBeTruthy());
  });

  it('shortens addresses to the first 6 and last 4 characters', () => {
    expect(shortAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe('0x5290...9EE7');
    expect(shortAddress('TShort')).toBe('TShort');
  });
});

/** The `background` the page's own style rules give `element` (jsdom computes no gradients): the last that applies. */
function backgroundOf(element: Element): string | undefined {
  // Pseudo-element selectors (::backdrop) are not elements' own rules; jsdom cannot evaluate them.
  const applies = (selector: string) => {
    try {
      return element.matches(selector);
    } catch {
      return false;
    }
  };
  let found: string | undefined;
  const visit = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSMediaRule) visit(rule.cssRules);
      else if (rule instanceof CSSStyleRule && applies(rule.selectorText)) {
        const declared = /(?:^|[{;]\s*)background:\s*([^;}]+)/.exec(rule.cssText);
        if (declared) found = declared[1]!.trim();
      }
    }
  };
  for (const sheet of Array.from(document.styleSheets)) visit(sheet.cssRules);
  return found;
}

const normalized = (css: string | undefined) => css?.replace(/\s+/g, '').replace(/\),/g, '),');

describe('wallet background', () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.className = '';
  });

  it.each(['light', 'dark'] as const)('follows the %s theme (not a light background under white text)', (mode) => {
    serve({});
    localStorage.setItem('theme', mode);
    renderWithApp(<WalletPage />, { theme: true });
    expect(document.documentElement.classList.contains(mode)).toBe(true);
    expect(normalized(backgroundOf(screen.getByTestId('wallet-page')))).toBe(normalized(WALLET_BACKGROUND[mode]));
  });
});
