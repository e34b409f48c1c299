import { hydrateRoot } from 'react-dom/client';
import { installGlobalErrorLogging } from '@/lib/logger';
import { VisitorLanding } from './app/visitor-landing';

installGlobalErrorLogging();

// Only ever loaded by the pre-rendered landing page (web/prerender.ts): its HTML is adopted.
hydrateRoot(document.getElementById('root')!, <VisitorLanding />);
