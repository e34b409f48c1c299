import CalendarMonthOutlined from '@mui/icons-material/CalendarMonthOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import StarOutline from '@mui/icons-material/StarOutlineOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { Logo } from '@/components/logo';
import { useDocumentTitle } from '@/lib/use-document-title';
import { CreatorShowcase, useShowcase } from './creator-showcase';
import { LandingThemeToggle } from './landing-theme-toggle';

const FEATURES = [
  {
    icon: <StarOutline fontSize="large" />,
    title: 'Premium Content',
    text: 'Photos, videos and posts from independent creators, published for their subscribers.',
  },
  {
    icon: <VerifiedUserOutlined fontSize="large" />,
    title: 'Age Verified',
    text: 'Every member is an adult: credit card verification is required for age verification.',
  },
  {
    icon: <CalendarMonthOutlined fontSize="large" />,
    title: 'Monthly Billing',
    text: 'One flat $1.99 membership, billed monthly. Cancel at any time with one click.',
  },
  {
    icon: <LockOpenOutlined fontSize="large" />,
    title: 'Exclusive Access',
    text: 'Subscriber-only posts, direct messages with creators and 1:1 live video chat.',
  },
];

const FOOTER: Array<{ title: string; links: Array<[string, string]> }> = [
  {
    title: 'For Creators',
    links: [
      ['Getting Started', '/login'],
      ['Creator Tools', '/login'],
      ['Analytics', '/login'],
      ['Payouts', '/login'],
    ],
  },
  {
    title: 'Support',
    links: [
      ['Help Center', '/login'],
      ['Safety', '/login'],
      ['Contact Us', '/login'],
    ],
  },
  {
    title: 'Legal',
    links: [
      ['Terms of Service', '/terms-of-service'],
      ['Privacy Policy', '/privacy-policy'],
      ['Community Guidelines', '/community-guidelines'],
      ['Copyright Policy', '/copyright-policy'],
    ],
  },
];

const gradient = 'linear-gradient(135deg, #d6336c 0%, #7048e8 100%)';

/**
 * SPEC §2 Landing page, for visitors. Served pre-rendered and never hydrated (web/src/landing-main.ts
 * drives its live parts), so it keeps to markup: links are plain links, nothing depends on state
 * but the showcase, which the app fetches here and the pre-rendered page fills by itself.
 */
export function LandingPage() {
  useDocumentTitle('Lively');
  const showcase = useShowcase();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Toolbar>
          <Logo />
          <Box sx={{ flex: 1 }} />
          <LandingThemeToggle />
          <Button href="/login" variant="contained" sx={{ ml: 1 }}>
            Get Started
          </Button>
        </Toolbar>
      </AppBar>

      <Box
        component="section"
        sx={{
          py: { xs: 8, md: 14 },
          textAlign: 'center',
          background: 'radial-gradient(circle at 50% 0%, rgba(214,51,108,0.18), transparent 60%)',
        }}
      >
        <Container maxWidth="md">
          <Typography variant="overline" color="primary" sx={{ fontWeight: 700, letterSpacing: 2 }}>
            For adults 18+ only
          </Typography>
          <Typography
            variant="h2"
            component="h1"
            sx={{ fontWeight: 800, letterSpacing: '-0.03em', mt: 1, fontSize: { xs: '2.4rem', md: '3.6rem' } }}
          >
            Where creators and fans{' '}
            <Box
              component="span"
              sx={{ background: gradient, backgroundClip: 'text', WebkitBackgroundClip: 'text', color: 'transparent' }}
            >
              come alive
            </Box>
          </Typography>
          <Typography variant="h6" component="p" color="textSecondary" sx={{ mt: 3, fontWeight: 400 }}>
            Lively is the premium platform for exclusive creator content and live 1:1 video chat. Creators keep 90% of
            what they earn. Credit card verification is required for age verification, so everyone here is a verified
            adult.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center', mt: 5 }}>
            <Button href="/login" variant="contained" size="large">
              Start Creating
            </Button>
            <Button href="/login" variant="outlined" size="large">
              Explore Creators
            </Button>
          </Stack>
        </Container>
      </Box>

      <CreatorShowcase creators={showcase} />

      <Container component="section" maxWidth="lg" sx={{ py: { xs: 6, md: 10 } }}>
        <Typography variant="h4" component="h2" sx={{ fontWeight: 800, textAlign: 'center', mb: 1 }}>
          Why Lively?
        </Typography>
        <Typography color="textSecondary" sx={{ textAlign: 'center', mb: 5 }}>
          A safe, verified space built for creators and the people who support them.
        </Typography>
        <Grid container spacing={3}>
          {FEATURES.map((feature) => (
            <Grid key={feature.title} size={{ xs: 12, sm: 6, md: 3 }}>
              <Card variant="outlined" sx={{ height: '100%' }}>
                <CardContent>
                  <Box sx={{ color: 'primary.main', mb: 1 }}>{feature.icon}</Box>
                  <Typography variant="h6" component="h3" sx={{ fontWeight: 700 }}>
                    {feature.title}
                  </Typography>
                  <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
                    {feature.text}
                  </Typography>
                </CardContent>
              </Card>
            </Grid>
          ))}
        </Grid>
      </Container>

      <Box component="section" sx={{ py: { xs: 8, md: 10 }, background: gradient, color: '#fff', textAlign: 'center' }}>
        <Container maxWidth="sm">
          <Typography variant="h4" component="h2" sx={{ fontWeight: 800 }}>
            Ready to Join?
          </Typography>
          <Typography sx={{ mt: 2, opacity: 0.9 }}>
            Create your account in a minute. $1.99 per month, billed automatically, cancel at any time.
          </Typography>
          <Button
            href="/login"
            variant="contained"
            size="large"
            sx={{ mt: 4, bgcolor: '#fff', color: '#d6336c', '&:hover': { bgcolor: '#f1f3f5' } }}
          >
            Get Started Today
          </Button>
          <Typography variant="body2" sx={{ mt: 3, opacity: 0.85 }}>
            By creating an account, you acknowledge that you are over 18 years old and agree to our{' '}
            <Link href="/terms-of-service" color="inherit" underline="always">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link href="/privacy-policy" color="inherit" underline="always">
              Privacy Policy
            </Link>
            .
          </Typography>
        </Container>
      </Box>

      <Box component="footer" sx={{ py: 6, borderTop: 1, borderColor: 'divider' }}>
        <Container maxWidth="lg">
          <Grid container spacing={4}>
            <Grid size={{ xs: 12, md: 3 }}>
              <Logo />
              <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
                Premium creator content and live video chat for verified adults.
              </Typography>
            </Grid>
            {FOOTER.map((column) => (
              <Grid key={column.title} size={{ xs: 12, sm: 4, md: 3 }}>
                <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 700, mb: 1 }}>
                  {column.title}
                </Typography>
                <Stack spacing={0.75}>
                  {column.links.map(([label, to]) => (
                    <Link key={label} href={to} color="textSecondary" underline="hover" variant="body2">
                      {label}
                    </Link>
                  ))}
                </Stack>
              </Grid>
            ))}
          </Grid>
          <Typography
            data-current-year
            variant="caption"
            color="textSecondary"
            sx={{ display: 'block', mt: 5, textAlign: 'center' }}
          >
            © {new Date().getFullYear()} Lively. All rights reserved. Adults 18+ only.
          </Typography>
        </Container>
      </Box>
    </Box>
  );
}
