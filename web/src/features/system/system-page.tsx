import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCurrentUser } from '@/lib/current-user';
import { useDocumentTitle } from '@/lib/use-document-title';
import { EventBrowser } from './event-browser';
import { ProjectionsCard } from './projections-card';
import { RebuildCard } from './rebuild-card';
import { useRebuildJobQuery, useSystemStatusQuery } from './system-api';

/** The admin System page (/system): live projection status, rebuilds, the event log. */
export function SystemPage() {
  const { user } = useCurrentUser();
  useDocumentTitle('System');
  const admin = user?.role === 'admin';
  const { data: status } = useSystemStatusQuery(undefined, { skip: !admin, pollingInterval: 2000 });
  const { data: rebuild } = useRebuildJobQuery(undefined, { skip: !admin, pollingInterval: 1000 });
  if (!admin) {
    return (
      <Container maxWidth="sm" sx={{ py: 8 }}>
        <Card>
          <CardContent sx={{ textAlign: 'center', py: 6 }}>
            <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 1 }}>
              Staff Only
            </Typography>
            <Typography color="textSecondary">The System page is for the people who run Lively.</Typography>
          </CardContent>
        </Card>
      </Container>
    );
  }
  const names = (status?.projections ?? [])
    .map((p) => p.name)
    .filter((name) => !name.startsWith('pm:') && !name.endsWith('@rebuild'));
  return (
    <Container maxWidth="xl" sx={{ py: { xs: 3, md: 4 } }}>
      <Stack spacing={3}>
        <div>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
            System
          </Typography>
          <Typography color="textSecondary">
            Read models, their lag behind the event log, rebuilds, and the log itself.
          </Typography>
        </div>
        <ProjectionsCard status={status} />
        <RebuildCard projections={names} job={rebuild?.job} />
        <EventBrowser />
      </Stack>
    </Container>
  );
}
