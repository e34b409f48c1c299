import CssBaseline from '@mui/material/CssBaseline';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { REDUCED_MOTION_QUERY } from '@/lib/motion';

/** localStorage key of the chosen theme (SPEC §2 "Other"). */
export const THEME_STORAGE_KEY = 'theme';

/**
 * Light and dark schemes as CSS variables; the scheme is applied as a `dark`/`light` class on
 * <html> (SPEC §4). With nothing stored, the system preference decides.
 *
 * Made on first use, not when the module loads: on a phone it takes a long task of its own, which
 * the browser's boot (main.tsx) runs apart from evaluating the app's modules.
 */
let made: ReturnType<typeof createTheme> | undefined;
export const appTheme = () => (made ??= makeTheme());

/**
 * For members who asked for less motion nothing slides, fades, ripples or pulses: transitions
 * and animations end at once (1 ms, not none, so code waiting for their end events still gets
 * them). Progress indicators keep turning: a still spinner would look like a frozen page. The
 * rule's `!important` also beats the inline transitions of MUI's fades and slides.
 */
const STILL = {
  '*:not([class*="Progress"]), *::before, *::after': {
    animationDuration: '1ms !important',
    animationIterationCount: '1 !important',
    transitionDuration: '1ms !important',
    transitionDelay: '0ms !important',
    scrollBehavior: 'auto !important',
  },
};

const makeTheme = () =>
  createTheme({
    cssVariables: { colorSchemeSelector: 'class' },
    colorSchemes: {
      light: {
        palette: {
          // Dark enough for 4.5:1 (WCAG AA) both as text on the page and under light text.
          primary: { main: '#c2255c' },
          contrastThreshold: 4.5,
          // Light text on it stays above 4.5:1 also while a button fades or ripples.
          secondary: { main: '#6741d9' },
          background: { default: '#fafafa', paper: '#ffffff' },
        },
      },
      dark: {
        palette: {
          // Text on a coloured fill is light only where light text reaches 4.5:1 (dark text on pink here).
          contrastThreshold: 4.5,
          primary: { main: '#f06595' },
          secondary: { main: '#9775fa' },
          background: { default: '#0f0f14', paper: '#1a1a22' },
        },
      },
    },
    shape: { borderRadius: 10 },
    components: {
      MuiCssBaseline: { styleOverrides: { [`@media ${REDUCED_MOTION_QUERY}`]: STILL } },
      // Dialogs are full-screen on phones (below `sm`), as `fullScreen` would make them, for every dialog.
      MuiDialog: {
        styleOverrides: {
          paper: ({ theme }) => ({
            [theme.breakpoints.down('sm')]: {
              margin: 0,
              width: '100%',
              maxWidth: '100%',
              height: '100%',
              maxHeight: 'none',
              borderRadius: 0,
            },
          }),
        },
      },
    },
    typography: {
      fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
      button: { textTransform: 'none', fontWeight: 600 },
    },
  });

/**
 * `noSsr`: the scheme is read in the first render, not after it. Otherwise the provider gives
 * every styled component a new theme once mounted, and adopting a page rendered on the server
 * ends in one long re-render of all of it. The markup does not depend on the scheme (CSS
 * variables; the toggle's icon waits for the page to be adopted).
 */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider
      theme={appTheme()}
      modeStorageKey={THEME_STORAGE_KEY}
      defaultMode="system"
      disableTransitionOnChange
      noSsr
    >
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
