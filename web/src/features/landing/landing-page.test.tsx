import '@/test-support/jsdom-setup';
import { cleanup, screen } from '@testing-library/react';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { LandingPage } from './landing-page';

jest.setTimeout(30_000);
afterEach(() => {
  cleanup();
  jest.useRealTimers();
});

describe('landing page', () => {
  it("the footer's copyright year comes from the clock", () => {
    // Only Date is faked: the clock reads 2031.
    jest.useFakeTimers({
      now: new Date('2031-03-04T12:00:00Z'),
      doNotFake: [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'requestIdleCallback',
        'cancelIdleCallback',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    });
    installFakeFetch(() => ({ status: 401, body: { error: 'Unauthorized' } }));
    renderWithApp(<LandingPage />);
    expect(screen.getByText('© 2031 Lively. All rights reserved. Adults 18+ only.')).toBeTruthy();
  });

  it('titles the tab "Lively"', () => {
    installFakeFetch(() => ({ status: 401, body: { error: 'Unauthorized' } }));
    renderWithApp(<LandingPage />);
    expect(document.title).toBe('Lively');
  });
});
