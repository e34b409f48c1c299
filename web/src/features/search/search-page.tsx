import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import { CreatorCard, CreatorCardSkeleton } from '@/components/creator-card';
import { useCreatorsQuery } from '@/lib/creators-api';
import { useDocumentTitle } from '@/lib/use-document-title';

/** /search?q=: creators whose name or bio matches the navigation's 'Search creators...' box. */
export function SearchPage() {
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  useDocumentTitle(q ? `Search: ${q}` : 'Creators');
  const { data = [], isFetching } = useCreatorsQuery({ q });
  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 2 }}>
        {q ? `Creators matching "${q}"` : 'All creators'}
      </Typography>
      <Grid container spacing={2}>
        {isFetching
          ? [0, 1, 2].map((i) => (
              <Grid key={i} size={{ xs: 12, sm: 6, md: 4 }}>
                <CreatorCardSkeleton />
              </Grid>
            ))
          : data.map((creator) => (
              <Grid key={creator.id} size={{ xs: 12, sm: 6, md: 4 }}>
                <CreatorCard creator={creator} headingLevel="h2" />
              </Grid>
            ))}
      </Grid>
      {!isFetching && data.length === 0 && <Typography color="textSecondary">No creators found</Typography>}
    </Container>
  );
}
