import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import IconButton from '@mui/material/IconButton';
import { useColorScheme, type Theme } from '@mui/material/styles';

/**
 * Which icon shows is up to the `dark` class on <html> (the theme's inline script sets it before
 * the first paint).
 */
const onlyInLight = (theme: Theme) => theme.applyStyles('dark', { display: 'none' });
const onlyInDark = (theme: Theme) => ({ display: 'none', ...theme.applyStyles('dark', { display: 'inline-block' }) });

/**
 * The landing page's light/dark switch. In the app it works like the top bar's; on the
 * pre-rendered page, which runs no React, web/src/landing-main.ts drives it by its
 * `data-theme-toggle` attribute. Both icons are in the markup: CSS shows the one that fits.
 */
export function LandingThemeToggle() {
  const { mode, systemMode, setMode } = useColorScheme();
  const current = (mode === 'system' ? systemMode : mode) ?? 'light';
  const next = current === 'dark' ? 'light' : 'dark';
  return (
    <IconButton aria-label={`Switch to ${next} theme`} data-theme-toggle onClick={() => setMode(next)} color="inherit">
      <DarkModeOutlined sx={onlyInLight} />
      <LightModeOutlined sx={onlyInDark} />
    </IconButton>
  );
}
