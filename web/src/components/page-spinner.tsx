import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** Shown while a lazy page loads or the signed-in state is not known yet. */
export function PageSpinner() {
  return (
    <Box sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center' }}>
      {/* The one progressbar, with its name (MUI's spinner is a progressbar itself). */}
      <CircularProgress aria-label="Loading" />
    </Box>
  );
}
