import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutlineOutlined';
import StarBorder from '@mui/icons-material/StarBorder';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import type { CurrentUser } from '@contracts/accounts';
import { PageSpinner } from '@/components/page-spinner';
import { ProfileImageButton } from '@/components/profile-image-dialog';
import { useCurrentUser } from '@/lib/current-user';
import { formatDate } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { BLOCKED_USERS_ID, BlockedUsers } from './blocked-users';

/** First plus last name, else the email (as a creator's name is shown, SPEC §2). */
export function displayNameOf(user: CurrentUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
}

function initialsOf(user: CurrentUser): string {
  const letters = `${user.firstName?.[0] ?? ''}${user.lastName?.[0] ?? ''}`;
  return (letters || user.email[0] || '?').toUpperCase();
}

/** One line on the site membership: what it is and until when. */
export function membershipSummary(user: CurrentUser, now = new Date()): string {
  const until = formatDate(user.subscriptionEndDate);
  const open = !!user.subscriptionEndDate && new Date(user.subscriptionEndDate) > now;
  if (user.subscriptionStatus === 'active') return until ? `Active · renews ${until}` : 'Active';
  if (user.subscriptionStatus === 'canceled' && open) return `Canceled · access until ${until}`;
  if (user.subscriptionStatus === 'past_due' && open) return `Payment failed · access until ${until}`;
  return 'No active subscription';
}

const ROLE_LABELS: Record<CurrentUser['role'], string> = { admin: 'Admin', creator: 'Creator', subscriber: 'Member' };

function Section({ title, id, children }: { title: string; id?: string; children: ReactNode }) {
  return (
    <Card variant="outlined" id={id}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** /profile: the signed-in member's own account (members and admins; creators have /creator/:id). */
export function ProfilePage() {
  useDocumentTitle('Profile');
  const { user } = useCurrentUser();
  if (!user) return <PageSpinner />;
  const name = displayNameOf(user);
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, md: 4 } }}>
      <Stack spacing={2}>
        <Card>
          <CardContent>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', minWidth: 0 }}>
              <Avatar
                src={user.profileImageUrl ?? undefined}
                alt={name}
                sx={{ width: 72, height: 72, bgcolor: 'primary.main', fontSize: 28, fontWeight: 700 }}
              >
                {initialsOf(user)}
              </Avatar>
              <Stack spacing={0.5} sx={{ minWidth: 0 }}>
                <Typography variant="h5" component="h1" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
                  {name}
                </Typography>
                <Typography color="textSecondary" sx={{ overflowWrap: 'anywhere' }} data-testid="profile-email">
                  {user.email}
                </Typography>
                <ProfileImageButton slot="avatar" label="Change photo" size="small" sx={{ alignSelf: 'flex-start' }} />
                <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
                  <Chip size="small" label={ROLE_LABELS[user.role] ?? 'Member'} />
                  {user.createdAt && (
                    <Typography variant="body2" color="textSecondary" data-testid="member-since">
                      Member since {formatDate(user.createdAt)}
                    </Typography>
                  )}
                </Stack>
              </Stack>
            </Stack>
          </CardContent>
        </Card>

        <Section title="Subscription">
          <Typography data-testid="membership-summary" sx={{ mb: 1.5 }}>
            {membershipSummary(user)}
          </Typography>
          <Button component={RouterLink} to="/subscribe" variant="outlined" sx={{ minHeight: 44 }}>
            Manage subscription
          </Button>
        </Section>

        <Section title="Lively Chat profile">
          <Typography color="textSecondary" sx={{ mb: 1.5 }}>
            Your display name, interests and matching preferences for video chat.
          </Typography>
          <Button
            component={RouterLink}
            to="/profile-setup"
            variant="outlined"
            startIcon={<ChatBubbleOutline />}
            sx={{ minHeight: 44 }}
          >
            Edit chat profile
          </Button>
        </Section>

        <Section title="Blocked users" id={BLOCKED_USERS_ID}>
          <BlockedUsers />
        </Section>

        {user.isCreator ? (
          <Section title="Creator page">
            <Button component={RouterLink} to={`/creator/${user.id}`} variant="outlined" sx={{ minHeight: 44 }}>
              View your creator page
            </Button>
          </Section>
        ) : (
          <Section title="Become a creator">
            <Typography color="textSecondary" sx={{ mb: 1.5 }}>
              Publish posts, offer subscription tiers and keep 90% of what your subscribers pay. Your dashboard walks
              you through it: write a short bio and you are set.
            </Typography>
            <Button
              component={RouterLink}
              to="/dashboard"
              variant="contained"
              startIcon={<StarBorder />}
              sx={{ minHeight: 44 }}
            >
              Become a Creator
            </Button>
          </Section>
        )}
      </Stack>
    </Container>
  );
}
