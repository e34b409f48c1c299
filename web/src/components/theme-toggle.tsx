import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import IconButton from '@mui/material/IconButton';
import { useColorScheme } from '@mui/material/styles';
import { useEffect, useState } from 'react';

/**
 * Flips light/dark and saves the choice (MUI stores it under the `theme` key). A page rendered
 * on the server does not know the scheme: the button shows it once the page is adopted.
 */
export function ThemeToggle() {
  const { mode, systemMode, setMode } = useColorScheme();
  const [adopted, setAdopted] = useState(false);
  useEffect(() => setAdopted(true), []);
  const current = (adopted && (mode === 'system' ? systemMode : mode)) || 'light';
  const next = current === 'dark' ? 'light' : 'dark';
  return (
    <IconButton
      aria-label={`Switch to ${next} theme`}
      data-theme={current}
      onClick={() => setMode(next)}
      color="inherit"
    >
      {current === 'dark' ? <LightModeOutlined /> : <DarkModeOutlined />}
    </IconButton>
  );
}
