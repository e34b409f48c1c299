import { loadShowcase } from '@/features/landing/showcase-fill';
import { installGlobalErrorLogging } from '@/lib/logger';

/**
 * The pre-rendered landing page's only script (web/prerender.ts): the page is complete HTML and
 * CSS, so nothing is hydrated and no React or MUI code is loaded. This file drives the few live
 * parts: the theme switch, the creators' showcase, the footer's year, and history moves.
 */
installGlobalErrorLogging();

const THEME_KEY = 'theme'; // where MUI keeps the choice too (web/src/app/theme.tsx), so the app agrees

function applyTheme(scheme: 'light' | 'dark', toggle: HTMLElement): void {
  const root = document.documentElement;
  root.classList.remove('light', 'dark');
  root.classList.add(scheme);
  root.style.colorScheme = scheme;
  toggle.setAttribute('aria-label', `Switch to ${scheme === 'dark' ? 'light' : 'dark'} theme`);
}

const toggle = document.querySelector<HTMLElement>('[data-theme-toggle]');
if (toggle) {
  // The theme's inline script (domain/contracts/theme-script.ts) chose the scheme before the
  // first paint; the label was rendered for light.
  const current = () => (document.documentElement.classList.contains('dark') ? 'dark' : 'light');
  applyTheme(current(), toggle);
  toggle.addEventListener('click', () => {
    const next = current() === 'dark' ? 'light' : 'dark';
    applyTheme(next, toggle);
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      // Storage blocked: the choice lasts for this page.
    }
  });
}

// Built once, shown for years: the copyright year comes from the visitor's clock.
document.querySelectorAll('[data-current-year]').forEach((node) => {
  node.textContent = (node.textContent ?? '').replace(/\d{4}/, String(new Date().getFullYear()));
});

void loadShowcase();

// This page has no router: when the history moves to an address it did not render, that address is loaded.
const rendered = window.location.pathname;
window.addEventListener('popstate', () => {
  if (window.location.pathname !== rendered) window.location.reload();
});
