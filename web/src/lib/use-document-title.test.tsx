import '@/test-support/jsdom-setup';
import { cleanup, renderHook } from '@testing-library/react';
import { documentTitle, useDocumentTitle } from './use-document-title';

afterEach(cleanup);

describe('useDocumentTitle', () => {
  it('sets "{title} · Lively" while shown and restores the previous title after', () => {
    document.title = 'Before';
    const { rerender, unmount } = renderHook(({ title }: { title: string }) => useDocumentTitle(title), {
      initialProps: { title: 'Messages' },
    });
    expect(document.title).toBe('Messages · Lively');
    rerender({ title: 'Payouts' });
    expect(document.title).toBe('Payouts · Lively');
    unmount();
    expect(document.title).toBe('Before');
  });

  it('the landing page and pages without a title read just "Lively"', () => {
    expect(documentTitle('Lively')).toBe('Lively');
    expect(documentTitle('')).toBe('Lively');
    expect(documentTitle()).toBe('Lively');
  });
});
