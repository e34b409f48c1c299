import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useDocumentTitle } from '@/lib/use-document-title';
import { LEGAL_DOCUMENTS, LEGAL_LAST_UPDATED, type LegalDocumentId } from './legal-documents';

/** The four static policy pages (SPEC §1, §2). */
export function LegalPage({ document: id }: { document: LegalDocumentId }) {
  const doc = LEGAL_DOCUMENTS[id];
  useDocumentTitle(doc.title);
  return (
    <Container component="article" maxWidth="md" sx={{ py: { xs: 4, md: 6 } }}>
      <Button component={RouterLink} to="/" startIcon={<ArrowBack />} sx={{ mb: 2 }}>
        Back to Home
      </Button>
      <Typography variant="h3" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '2rem', md: '2.6rem' } }}>
        {doc.title}
      </Typography>
      <Typography color="textSecondary" sx={{ mt: 1 }}>
        Last updated {LEGAL_LAST_UPDATED}
      </Typography>
      <Divider sx={{ my: 3 }} />
      <Typography sx={{ mb: 3 }}>{doc.intro}</Typography>
      {doc.sections.map((section, index) => (
        <Box component="section" key={section.heading} sx={{ mb: 3 }}>
          <Typography variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
            {index + 1}. {section.heading}
          </Typography>
          {section.paragraphs.map((paragraph) => (
            <Typography key={paragraph.slice(0, 40)} color="textSecondary" sx={{ mb: 1.5, lineHeight: 1.7 }}>
              {paragraph}
            </Typography>
          ))}
        </Box>
      ))}
    </Container>
  );
}
