import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useCurrentUser } from '@/lib/current-user';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAccountTwoFactorStatusQuery } from './account-api';
import { DeleteAccountDialog } from './delete-account-dialog';
import { DownloadData } from './download-data';

/** /account (issue 23): download your data, delete your account. */
export function AccountPage() {
  useDocumentTitle('Account');
  return (
    <Container maxWidth="sm" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Account
      </Typography>
      <Stack spacing={3}>
        <DownloadData />
        <DeleteAccount />
      </Stack>
    </Container>
  );
}

/** "Delete your account": what happens, plainly, then the confirmation dialog. */
function DeleteAccount() {
  const { user } = useCurrentUser();
  // Asked now, fresh on each visit (two-factor may have changed on /security), so the dialog knows at once.
  useAccountTwoFactorStatusQuery(undefined, { refetchOnMountOrArgChange: true });
  const [open, setOpen] = useState(false);
  return (
    <Card>
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            Delete your account
          </Typography>
          <Typography variant="body2" color="textSecondary" component="div">
            When you delete your account:
            <Box component="ul" sx={{ my: 1, pl: 3 }}>
              <li>your subscriptions end and nothing renews or is charged again;</li>
              <li>
                your profile, your posts, and the text and media of your messages are removed, and your name shows as
                &ldquo;Deleted user&rdquo;;
              </li>
              <li>payment records are kept, as the law requires, without your name.</li>
            </Box>
            This cannot be undone: download your data first if you want a copy.
          </Typography>
          {user?.isCreator && (
            <Typography variant="body2" color="textSecondary">
              Creators withdraw their balance first: an account with earnings still to pay out cannot be deleted yet.
            </Typography>
          )}
          <Box>
            <Button
              variant="contained"
              color="error"
              startIcon={<DeleteForeverOutlined />}
              onClick={() => setOpen(true)}
              sx={{ minHeight: 44 }}
            >
              Delete my account
            </Button>
          </Box>
        </Stack>
      </CardContent>
      {open && <DeleteAccountDialog onClose={() => setOpen(false)} />}
    </Card>
  );
}
