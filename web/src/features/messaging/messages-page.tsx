import ArrowBack from '@mui/icons-material/ArrowBack';
import AttachFile from '@mui/icons-material/AttachFile';
import Lock from '@mui/icons-material/Lock';
import LockOpen from '@mui/icons-material/LockOpen';
import Send from '@mui/icons-material/Send';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Message } from '@contracts/messaging';
import { isUnauthorized, serverErrorText } from '@/lib/api';
import { useCurrentUser } from '@/lib/current-user';
import { MediaGallery } from '@/components/media-gallery';
import { MediaUploader } from '@/components/media-uploader';
import { toast } from '@/components/toast';
import { useMediaUpload } from '@/lib/use-media-upload';
import { formatDateTime, formatTime, usd } from '@/lib/format';
import {
  useConversationsQuery,
  useConversationUserQuery,
  useSendMessageMutation,
  useThreadQuery,
  useUnlockMessageMutation,
} from './messaging-api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { ThreadSafetyMenu } from './thread-safety-menu';
import { TipButton } from '@/components/tip-button';
import { IdentityRequiredAlert } from '@/components/identity-required-alert';
import { identityRequiredText } from '@/lib/verification-api';
import { refusalText } from '@/lib/safety-api';

function Bubble({ message, mine, otherUserId }: { message: Message; mine: boolean; otherUserId: string }) {
  const [unlock, { isLoading }] = useUnlockMessageMutation();
  const doUnlock = async () => {
    try {
      await unlock({ messageId: message.id, otherUserId }).unwrap();
      toast({ title: 'Message unlocked!', description: 'The message was paid from your balance.' });
    } catch (error) {
      if (isUnauthorized(error)) return;
      toast({
        title: 'Error',
        description: `Failed to unlock message. ${serverErrorText(error) ?? ''}`.trim(),
        variant: 'destructive',
      });
    }
  };
  return (
    <Box data-testid="message" sx={{ alignSelf: mine ? 'flex-end' : 'flex-start', maxWidth: '75%' }}>
      <Paper
        sx={{
          px: 1.5,
          py: 1,
          bgcolor: mine ? 'primary.main' : 'action.hover',
          color: mine ? 'primary.contrastText' : 'text.primary',
        }}
        elevation={0}
      >
        {message.locked && message.media.length > 0 ? (
          // The server's blurred previews behind the message's own unlock prompt.
          <MediaGallery
            media={message.media}
            alt="Photo in a paid message"
            lockedOverlay={
              <Stack spacing={1} sx={{ alignItems: 'center' }}>
                <Lock />
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  Paid message · {usd(message.price ?? 0)}
                </Typography>
                <Button
                  size="small"
                  variant="contained"
                  color="secondary"
                  startIcon={<LockOpen />}
                  disabled={isLoading}
                  onClick={doUnlock}
                  sx={{ minHeight: 44 }}
                >
                  {isLoading ? 'Unlocking...' : `Unlock for ${usd(message.price ?? 0)}`}
                </Button>
              </Stack>
            }
          />
        ) : message.locked ? (
          <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Lock fontSize="small" />
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                Paid message · {usd(message.price ?? 0)}
              </Typography>
            </Stack>
            <Button
              size="small"
              variant="contained"
              color="secondary"
              startIcon={<LockOpen />}
              disabled={isLoading}
              onClick={doUnlock}
            >
              {isLoading ? 'Unlocking...' : `Unlock for ${usd(message.price ?? 0)}`}
            </Button>
          </Stack>
        ) : (
          <>
            <Typography data-testid="message-content" sx={{ whiteSpace: 'pre-wrap' }}>
              {message.content}
            </Typography>
            <MediaGallery media={message.media} alt="Photo in a message" />
            {message.isPaid && (
              <Typography variant="caption" sx={{ opacity: 0.8 }}>
                Paid message · {usd(message.price ?? 0)} {mine ? (message.isUnlocked ? '· unlocked' : '· locked') : ''}
              </Typography>
            )}
          </>
        )}
      </Paper>
      <Typography variant="caption" color="textSecondary" sx={{ display: 'block', textAlign: mine ? 'right' : 'left' }}>
        {formatTime(message.createdAt)}
      </Typography>
    </Box>
  );
}

function Thread({
  otherUserId,
  otherName,
  otherIsCreator,
  onBack,
}: {
  otherUserId: string;
  otherName: string;
  /** A creator can be tipped from the thread (issue 21). */
  otherIsCreator: boolean;
  /** Phones show one pane at a time: the way back to the list. */
  onBack?: () => void;
}) {
  const { user } = useCurrentUser();
  const { data: messages = [], isLoading } = useThreadQuery(otherUserId);
  const [send, { isLoading: sending }] = useSendMessageMutation();
  const [text, setText] = useState('');
  const [price, setPrice] = useState('');
  const [attaching, setAttaching] = useState(false);
  const [needsIdentity, setNeedsIdentity] = useState<string | null>(null);
  const upload = useMediaUpload();
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const content = text.trim();
    if (!content) return; // SPEC §5: blocked when empty after trimming
    try {
      await send({
        receiverId: otherUserId,
        content,
        ...(price.trim() ? { price: price.trim() } : {}),
        ...(upload.mediaIds.length ? { mediaIds: upload.mediaIds } : {}),
      }).unwrap();
      setText('');
      setPrice('');
      upload.clear();
      setAttaching(false);
    } catch (error) {
      const identity = identityRequiredText(error);
      if (identity) return setNeedsIdentity(identity);
      if (!isUnauthorized(error))
        toast({ title: 'Error', description: refusalText(error) ?? 'Failed to send message.', variant: 'destructive' });
    }
  };

  return (
    <Stack sx={{ height: '100%' }}>
      <Stack
        direction="row"
        spacing={1}
        sx={{ p: onBack ? 1 : 2, borderBottom: 1, borderColor: 'divider', alignItems: 'center' }}
      >
        {onBack && (
          <IconButton aria-label="Back to conversations" onClick={onBack} sx={{ width: 44, height: 44 }}>
            <ArrowBack />
          </IconButton>
        )}
        {/* On a phone the thread is the page (the list is hidden): its name is the page's heading. */}
        <Typography variant="h6" component={onBack ? 'h1' : 'h2'} noWrap>
          {otherName}
        </Typography>
        {otherIsCreator && <TipButton creatorId={otherUserId} creatorName={otherName} />}
        <ThreadSafetyMenu otherUserId={otherUserId} otherName={otherName} />
      </Stack>
      <Stack spacing={1} sx={{ flex: 1, overflowY: 'auto', p: 2 }}>
        {!isLoading && messages.length === 0 && (
          <Typography color="textSecondary" sx={{ textAlign: 'center', mt: 4 }}>
            No messages yet
          </Typography>
        )}
        {messages.map((message) => (
          <Bubble key={message.id} message={message} mine={message.senderId === user?.id} otherUserId={otherUserId} />
        ))}
        <div ref={end} />
      </Stack>
      {attaching && (
        <Box sx={{ p: { xs: 1, sm: 2 }, borderTop: 1, borderColor: 'divider', maxHeight: '40%', overflowY: 'auto' }}>
          <MediaUploader upload={upload} />
        </Box>
      )}
      {needsIdentity && (
        <Box sx={{ px: { xs: 1, sm: 2 }, pt: 1 }}>
          <IdentityRequiredAlert message={needsIdentity} />
        </Box>
      )}
      <Stack
        component="form"
        onSubmit={submit}
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ p: { xs: 1, sm: 2 }, borderTop: 1, borderColor: 'divider', flexWrap: { xs: 'wrap', sm: 'nowrap' } }}
      >
        <TextField
          size="small"
          fullWidth
          // Phones: a creator's price and the Send button go on a second row; the message keeps the width.
          sx={{ flex: { xs: user?.isCreator ? '1 1 100%' : 1, sm: 1 } }}
          placeholder="Type a message..."
          value={text}
          onChange={(event) => setText(event.target.value)}
          slotProps={{ htmlInput: { 'aria-label': 'Message' } }}
        />
        {user?.isCreator && (
          <IconButton
            aria-label={attaching ? 'Hide attached media' : 'Attach photos or videos'}
            aria-pressed={attaching}
            aria-expanded={attaching}
            onClick={() => setAttaching((open) => !open)}
            sx={{ width: 44, height: 44 }}
          >
            <AttachFile />
          </IconButton>
        )}
        {user?.isCreator && (
          <TextField
            size="small"
            placeholder="Price"
            value={price}
            onChange={(event) => setPrice(event.target.value)}
            sx={{ width: 120, flex: { xs: 1, sm: 'none' } }}
            slotProps={{
              htmlInput: { 'aria-label': 'Price (optional, makes it a paid message)', inputMode: 'decimal' },
              input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
            }}
          />
        )}
        <Button
          type="submit"
          variant="contained"
          endIcon={<Send />}
          disabled={!text.trim() || sending || !upload.allReady}
          sx={{ minHeight: 44 }}
        >
          Send
        </Button>
      </Stack>
    </Stack>
  );
}

/**
 * /messages (SPEC §2): conversations on the left, the selected thread on the right. Phones show
 * one pane at a time: the list, then the thread with a back button.
 */
export function MessagesPage() {
  useDocumentTitle('Messages');
  const [params, setParams] = useSearchParams();
  const selected = params.get('user');
  const { data: conversations = [], isLoading } = useConversationsQuery();
  const known = conversations.find((conversation) => conversation.user.id === selected);
  // A conversation not started yet (opened from a creator profile): ask who the other person is.
  const other = useConversationUserQuery(selected ?? '', { skip: !selected || Boolean(known) });
  const otherName = known?.user.name ?? other.data?.user.name ?? 'Conversation';
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const showList = !phone || !selected;
  const showThread = !phone || Boolean(selected);

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 1, sm: 3 }, px: { xs: 1, sm: 2 } }}>
      <Paper
        variant="outlined"
        sx={{ display: 'flex', height: { xs: 'calc(100dvh - 90px)', sm: 'calc(100vh - 140px)' }, minHeight: 420 }}
      >
        {showList && (
          <Box
            sx={{
              width: phone ? '100%' : { sm: 220, md: 320 },
              flexShrink: 0,
              borderRight: phone ? 0 : 1,
              borderColor: 'divider',
              overflowY: 'auto',
            }}
          >
            <Typography variant="h6" component="h1" sx={{ p: 2 }}>
              Messages
            </Typography>
            {!isLoading && conversations.length === 0 && (
              <Typography color="textSecondary" sx={{ px: 2 }}>
                No conversations yet
              </Typography>
            )}
            <List disablePadding>
              {conversations.map((conversation) => (
                <ListItem key={conversation.user.id} disablePadding>
                  <ListItemButton
                    selected={conversation.user.id === selected}
                    onClick={() => setParams({ user: conversation.user.id })}
                  >
                    <ListItemAvatar>
                      <Avatar src={conversation.user.profileImageUrl ?? undefined}>
                        {conversation.user.name[0]?.toUpperCase()}
                      </Avatar>
                    </ListItemAvatar>
                    <ListItemText
                      primary={conversation.user.name}
                      secondary={
                        <>
                          <Box
                            component="span"
                            sx={{
                              display: 'block',
                              overflow: 'hidden',
                              textOverflow: 'ellipsis',
                              whiteSpace: 'nowrap',
                            }}
                          >
                            {conversation.lastMessage}
                          </Box>
                          <Box component="span" sx={{ fontSize: 12 }}>
                            {formatDateTime(conversation.lastMessageAt)}
                          </Box>
                        </>
                      }
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          </Box>
        )}
        {showThread && (
          <Box sx={{ flex: 1, minWidth: 0 }}>
            {selected ? (
              <Thread
                key={selected}
                otherUserId={selected}
                otherName={otherName}
                otherIsCreator={(known?.user ?? other.data?.user)?.isCreator ?? false}
                onBack={phone ? () => setParams({}) : undefined}
              />
            ) : (
              <Box sx={{ height: '100%', display: 'grid', placeItems: 'center' }}>
                <Typography color="textSecondary">Select a conversation</Typography>
              </Box>
            )}
          </Box>
        )}
      </Paper>
    </Container>
  );
}
