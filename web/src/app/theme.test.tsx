import '@/test-support/jsdom-setup';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ThemeToggle } from '@/components/theme-toggle';
import { AppThemeProvider } from './theme';

jest.setTimeout(30_000);
afterEach(() => {
  cleanup();
  localStorage.clear();
  document.documentElement.className = '';
});

function renderToggle() {
  return render(
    <AppThemeProvider>
      <ThemeToggle />
    </AppThemeProvider>,
  );
}

describe('theme', () => {
  it('starts light without a stored choice (system light), flips to dark and saves it under "theme"', () => {
    renderToggle();
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    act(() => {
      fireEvent.click(screen.getByLabelText('Switch to dark theme'));
    });
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(screen.getByLabelText('Switch to light theme')).toBeTruthy();
  });

  it('reads the stored choice on load', () => {
    localStorage.setItem('theme', 'dark');
    renderToggle();
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(screen.getByLabelText('Switch to light theme')).toBeTruthy();
  });
});
