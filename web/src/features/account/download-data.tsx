import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { useSearchParams } from 'react-router';
import { toast } from '@/components/toast';
import { serverErrorText, type ApiDispatch } from '@/lib/api';
import { accountApi, isPreparing } from './account-api';

export const EXPORT_FILE_NAME = 'lively-data.json';

/** Saves text as a file: an object URL on a link with `download`, in the page for Firefox. */
function saveFile(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later: some browsers still read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

type State =
  { kind: 'idle' } | { kind: 'loading' } | { kind: 'preparing'; message: string } | { kind: 'error'; message: string };

/** "Download your data": the JSON file at once, or the server's word that it is being prepared. */
export function DownloadData() {
  const dispatch = useDispatch<ApiDispatch>();
  const [state, setState] = useState<State>({ kind: 'idle' });
  // A prepared file, opened from its notification (`/account?export=<id>`).
  const ready = useSearchParams()[0].get('export');

  async function download() {
    setState({ kind: 'loading' });
    try {
      const answer = await dispatch(accountApi.endpoints.exportAccount.initiate(undefined, { track: false })).unwrap();
      if (isPreparing(answer)) return setState({ kind: 'preparing', message: answer.message });
      saveFile(JSON.stringify(answer, null, 2), EXPORT_FILE_NAME);
      setState({ kind: 'idle' });
      toast({ title: 'Download started', description: `Your data is saved as ${EXPORT_FILE_NAME}.` });
    } catch (failure) {
      setState({
        kind: 'error',
        message: serverErrorText(failure) ?? 'Could not download your data. Please try again.',
      });
    }
  }

  const loading = state.kind === 'loading';
  return (
    <Card>
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            Download your data
          </Typography>
          <Typography variant="body2" color="textSecondary">
            One JSON file with everything Lively holds about you: your profile, your posts and comments, the messages
            you sent and received, your subscriptions, payments and tips, conversions and payouts, and the reports you
            made.
          </Typography>
          {ready && /^[0-9a-f-]{36}$/.test(ready) && (
            <Alert
              severity="success"
              action={
                <Button
                  color="inherit"
                  size="small"
                  href={`/api/account/exports/${ready}`}
                  download
                  sx={{ minHeight: 44 }}
                >
                  Download
                </Button>
              }
            >
              Your data file is ready.
            </Alert>
          )}
          {state.kind === 'preparing' && <Alert severity="info">{state.message}</Alert>}
          {state.kind === 'error' && (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={download} sx={{ minHeight: 44 }}>
                  Retry
                </Button>
              }
            >
              {state.message}
            </Alert>
          )}
          <Box>
            <Button
              variant="outlined"
              startIcon={<DownloadOutlined />}
              onClick={download}
              disabled={loading}
              sx={{ minHeight: 44 }}
            >
              {loading ? 'Preparing your file...' : 'Download my data'}
            </Button>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
