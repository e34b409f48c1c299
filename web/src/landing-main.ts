import { hydrateRoot } from 'react-dom/client';
import { installGlobalErrorLogging } from '@/lib/logger';
import { VisitorLanding } from './app/visitor-landing';

installGlobalErrorLogging();

// Only ever loaded by the pre-rendered landing page (web/prerender.ts): its HTML is adopted.
hydrateRoot(document.getElementById('root')!, <VisitorLanding />);

// This page has no router: when the history moves to an address it did not render, that address is loaded.
const rendered = window.location.pathname;
window.addEventListener('popstate', () => {
  if (window.location.pathname !== rendered) window.location.reload();
});
