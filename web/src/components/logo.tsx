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
          // The mark's letter is drawn, not text: a link named "Lively home" then has no visible
          // word missing from its name (WCAG 2.5.3, label in name).
          '&::before': { content: '"L"' },
        }}
      />
      <Typography variant={size} component="span" sx={{ fontWeight: 800, letterSpacing: '-0.02em' }}>
        Lively
      </Typography>
    </Box>
  );
}
