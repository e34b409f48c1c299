import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The Lively word mark. */
export function Logo({ size = 'h6' }: { size?: 'h4' | 'h5' | 'h6' }) {
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Box
        aria-hidden
        sx={{
          width: 30,
          height: 30,
          borderRadius: '8px',
          background: 'linear-gradient(135deg, #d6336c, #7048e8)',
          color: '#fff',
          display: 'grid',
          placeItems: 'center',
          fontWeight: 800,
        }}
      >
        L
      </Box>
      <Typography variant={size} component="span" sx={{ fontWeight: 800, letterSpacing: '-0.02em' }}>
        Lively
      </Typography>
    </Box>
  );
}
