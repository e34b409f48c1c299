import ArrowBack from '@mui/icons-material/ArrowBack';
import Check from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { PlanOptions } from './plan-options';
import { SubscriptionStatusBox } from './subscription-status-box';
import { useDocumentTitle } from '@/lib/use-document-title';

export const SITE_PLAN_FEATURES = [
  'Unlimited access to creator profiles and public posts',
  'Subscribe to your favourite creators and unlock their content',
  'Direct messages with creators',
  'Matched and random 1:1 live video chat',
  'Age-verified community of adults',
  'Cancel at any time',
];

/**
 * The subscribe page (SPEC §2): plan, feature list, status box. EXTENSION POINT: the plan tabs,
 * the crypto balance box and the subscribe/cancel buttons go after the status box.
 */
export function SubscribePage() {
  useDocumentTitle('Membership');
  return (
    <Box sx={{ px: 2, py: { xs: 3, md: 6 }, display: 'flex', justifyContent: 'center' }}>
      <Card sx={{ width: '100%', maxWidth: 560 }} elevation={3}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Stack spacing={3}>
            <Box sx={{ textAlign: 'center' }}>
              <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
                Lively Membership
              </Typography>
              <Typography color="textSecondary" sx={{ mt: 1 }}>
                $1.99 per month, billed automatically. Cancel at any time.
              </Typography>
            </Box>
            <List dense disablePadding>
              {SITE_PLAN_FEATURES.map((feature) => (
                <ListItem key={feature} disableGutters>
                  <ListItemIcon sx={{ minWidth: 32 }}>
                    <Check color="success" fontSize="small" />
                  </ListItemIcon>
                  <ListItemText primary={feature} />
                </ListItem>
              ))}
            </List>
            <SubscriptionStatusBox />
            <PlanOptions />
            <Button component={RouterLink} to="/" startIcon={<ArrowBack />} variant="text">
              Back to Home
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
