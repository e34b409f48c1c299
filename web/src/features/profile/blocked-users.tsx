import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { BlockedUser } from '@contracts/safety';
import { isUnauthorized, serverErrorText } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { useBlocksQuery, useUnblockUserMutation } from '@/lib/safety-api';
import { toast } from '@/components/toast';

/** The section's anchor: /profile#blocked-users. */
export const BLOCKED_USERS_ID = 'blocked-users';

function BlockedRow({ blocked }: { blocked: BlockedUser }) {
  const [unblock, { isLoading }] = useUnblockUserMutation();
  const onUnblock = async () => {
    try {
      await unblock(blocked.userId).unwrap();
      toast({ title: 'User Unblocked', description: `${blocked.name} can match with and message you again.` });
    } catch (error) {
      if (!isUnauthorized(error))
        toast({
          title: 'Error',
          description: serverErrorText(error) ?? 'Failed to unblock user.',
          variant: 'destructive',
        });
    }
  };
  return (
    <ListItem
      disableGutters
      divider
      secondaryAction={
        <Button
          onClick={onUnblock}
          disabled={isLoading}
          variant="outlined"
          size="small"
          aria-label={`Unblock ${blocked.name}`}
          sx={{ minHeight: 44 }}
        >
          Unblock
        </Button>
      }
      sx={{ pr: 14 }}
    >
      <ListItemText
        primary={blocked.name}
        secondary={`Blocked ${formatDate(blocked.createdAt)}${blocked.reason ? ` · ${blocked.reason}` : ''}`}
        slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } }, secondary: { sx: { overflowWrap: 'anywhere' } } }}
      />
    </ListItem>
  );
}

/** The members this user blocked, each with Unblock (issue 20). */
export function BlockedUsers() {
  const { data, isLoading, error } = useBlocksQuery();
  const { hash } = useLocation();
  // Linked as /profile#blocked-users: the router does not scroll to a hash, so the list does once shown.
  useEffect(() => {
    if (hash === `#${BLOCKED_USERS_ID}` && !isLoading)
      document.getElementById(BLOCKED_USERS_ID)?.scrollIntoView?.({ block: 'center' });
  }, [hash, isLoading]);
  if (isLoading) return <Skeleton height={56} />;
  if (error) return <Alert severity="error">{serverErrorText(error) ?? 'Could not load your blocked users.'}</Alert>;
  if (!data?.length)
    return (
      <Typography color="textSecondary">
        You have not blocked anyone. Blocked members cannot match with you in chat, message you, or like and comment on
        your posts.
      </Typography>
    );
  return (
    <List disablePadding aria-label="Blocked users">
      {data.map((blocked) => (
        <BlockedRow key={blocked.userId} blocked={blocked} />
      ))}
    </List>
  );
}
