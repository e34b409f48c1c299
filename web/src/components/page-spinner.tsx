import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** Shown while a lazy page loads or the signed-in state is not known yet. */
export function PageSpinner() {
  return (
    <Box role="progressbar" aria-label="Loading" sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center' }}>
      <CircularProgress />
    </Box>
  );
}
