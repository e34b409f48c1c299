import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useDocumentTitle } from '@/lib/use-document-title';

/** Unknown paths for subscribed members (SPEC §2). */
export function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <Box sx={{ minHeight: '70vh', display: 'grid', placeItems: 'center', px: 2 }}>
      <Card sx={{ width: '100%', maxWidth: 440 }}>
        <CardContent>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 2 }}>
            <ErrorOutline color="error" />
            <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
              404 Page Not Found
            </Typography>
          </Box>
          <Typography color="textSecondary">Did you forget to add the page to the router?</Typography>
        </CardContent>
      </Card>
    </Box>
  );
}
