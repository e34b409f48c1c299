import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { toast } from '@/components/toast';

/** The ten recovery codes, shown once right after two-factor is turned on, with Copy and Download. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `Lively recovery codes (each works once)\n\n${codes.join('\n')}\n`;

  async function copy() {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied', description: 'Recovery codes copied to clipboard' });
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: 'lively-recovery-codes.txt' });
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <Stack spacing={2}>
      <Alert severity="success">Two-factor authentication is on.</Alert>
      <Typography variant="h6" component="h2">
        Save your recovery codes
      </Typography>
      <Typography variant="body2" color="textSecondary">
        If you lose your phone, each of these codes signs you in once. They are shown only now: keep them somewhere
        safe.
      </Typography>
      <Box
        component="ol"
        data-testid="recovery-codes"
        sx={{
          display: 'grid',
          gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
          gap: 1,
          m: 0,
          p: 2,
          pl: 4,
          borderRadius: 1,
          bgcolor: 'action.hover',
          fontFamily: 'monospace',
          fontSize: '1rem',
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button variant="outlined" onClick={copy} sx={{ minHeight: 44 }}>
          Copy
        </Button>
        <Button variant="outlined" onClick={download} sx={{ minHeight: 44 }}>
          Download
        </Button>
        <Button variant="contained" onClick={onDone} sx={{ minHeight: 44, ml: 'auto' }}>
          I saved them
        </Button>
      </Stack>
    </Stack>
  );
}
