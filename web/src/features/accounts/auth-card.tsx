import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Logo } from '@/components/logo';
import { ThemeToggle } from '@/components/theme-toggle';

/** The centred card the sign-in, sign-up and reset screens share. */
export function AuthCard({
  title,
  subtitle,
  children,
  maxWidth = 440,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  maxWidth?: number;
}) {
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        px: 2,
        py: 4,
        background:
          'radial-gradient(circle at 20% 0%, rgba(214,51,108,0.14), transparent 45%), radial-gradient(circle at 90% 100%, rgba(112,72,232,0.14), transparent 45%)',
      }}
    >
      <Box
        sx={{ width: '100%', maxWidth, display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: 3 }}
      >
        <Box
          component={RouterLink}
          to="/"
          aria-label="Lively home"
          sx={{ color: 'text.primary', textDecoration: 'none' }}
        >
          <Logo />
        </Box>
        <ThemeToggle />
      </Box>
      <Card sx={{ width: '100%', maxWidth }} elevation={3}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 800, textAlign: 'center' }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography color="textSecondary" sx={{ textAlign: 'center', mt: 1, mb: 3 }}>
              {subtitle}
            </Typography>
          )}
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}

/** A finished reset step: its icon, what happened, and the way back to sign in. */
export function AuthOutcome({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <AuthCard title={title}>
      <Stack spacing={3} sx={{ alignItems: 'center', mt: 2 }}>
        {icon}
        <Typography color="textSecondary" sx={{ textAlign: 'center' }}>
          {children}
        </Typography>
        <Button component={RouterLink} to="/login" variant="contained" fullWidth>
          Back to Login
        </Button>
      </Stack>
    </AuthCard>
  );
}
