import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { SHOWCASE_SIZE, type Showcase, type ShowcaseCreator } from '@contracts/showcase';

/** The cover's slot: a phone's width, half a tablet's, a quarter of a wide screen (its srcset's `sizes`). */
const COVER_SIZES = '(min-width: 900px) 280px, (min-width: 600px) 50vw, 100vw';
/** Cards a phone shows: the others wait for a wider screen, so the page stays short. */
const ON_PHONES = 2;

/**
 * The showcase's creators, fetched once the page runs in the app (plain fetch: the landing page
 * keeps out of the store). `null` until they arrive, and always while pre-rendering.
 */
export function useShowcase(): ShowcaseCreator[] | null {
  const [creators, setCreators] = useState<ShowcaseCreator[] | null>(null);
  useEffect(() => {
    let live = true;
    fetch('/api/showcase')
      .then((res) => (res.ok ? (res.json() as Promise<Showcase>) : { creators: [] }))
      .then(
        (body) => live && setCreators(body.creators),
        () => live && setCreators([]),
      );
    return () => {
      live = false;
    };
  }, []);
  return creators;
}

/**
 * A few creators' covers, avatars and names (issue 18), below the hero. Without creators yet
 * (pre-rendered, or loading) the cards are empty boxes of their final size, which the
 * pre-rendered page's script fills (./showcase-fill.ts), so nothing moves when images arrive.
 */
export function CreatorShowcase({ creators }: { creators: ShowcaseCreator[] | null }) {
  if (creators && creators.length === 0) return null;
  const cards = creators ?? Array.from({ length: SHOWCASE_SIZE }, () => null);
  return (
    <Container component="section" maxWidth="lg" sx={{ pt: { xs: 2, md: 4 } }} data-showcase>
      <Typography variant="h5" component="h2" sx={{ fontWeight: 800, textAlign: 'center', mb: 3 }}>
        Meet some of our creators
      </Typography>
      <Grid container spacing={2}>
        {cards.map((creator, index) => (
          <Grid
            key={creator?.id ?? index}
            size={{ xs: 12, sm: 6, md: 3 }}
            sx={index >= ON_PHONES ? { display: { xs: 'none', sm: 'block' } } : undefined}
            data-showcase-card
          >
            <ShowcaseCard creator={creator} />
          </Grid>
        ))}
      </Grid>
    </Container>
  );
}

function ShowcaseCard({ creator }: { creator: ShowcaseCreator | null }) {
  const cover = creator?.cover;
  const avatar = creator?.avatar;
  return (
    <Box sx={{ borderRadius: 2, overflow: 'hidden', border: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Box
        sx={{
          aspectRatio: '3 / 1', // a cover's own shape (the cover crop)
          background: 'linear-gradient(135deg, #d6336c 0%, #7048e8 100%)',
          '& img': { display: 'block', width: '100%', height: '100%', objectFit: 'cover' },
        }}
      >
        <img
          data-showcase-cover
          alt=""
          loading="lazy"
          decoding="async"
          sizes={COVER_SIZES}
          src={cover?.src}
          srcSet={cover?.srcSet}
          width={cover?.width ?? 1200}
          height={cover?.height ?? 400}
          hidden={!cover}
        />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1.25, minHeight: 56 }}>
        <Box
          sx={{
            width: 36,
            height: 36,
            flexShrink: 0,
            borderRadius: '50%',
            overflow: 'hidden',
            bgcolor: 'action.selected',
            '& img': { display: 'block', width: '100%', height: '100%', objectFit: 'cover' },
          }}
        >
          <img
            data-showcase-avatar
            alt=""
            loading="lazy"
            decoding="async"
            src={avatar?.src}
            width={36}
            height={36}
            hidden={!avatar}
          />
        </Box>
        <Typography data-showcase-name variant="subtitle2" component="p" noWrap sx={{ fontWeight: 700, minWidth: 0 }}>
          {creator?.name}
        </Typography>
      </Box>
    </Box>
  );
}
