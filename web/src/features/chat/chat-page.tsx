import CallEnd from '@mui/icons-material/CallEnd';
import Mic from '@mui/icons-material/Mic';
import MicOff from '@mui/icons-material/MicOff';
import SkipNext from '@mui/icons-material/SkipNext';
import Tune from '@mui/icons-material/Tune';
import Videocam from '@mui/icons-material/Videocam';
import VideocamOff from '@mui/icons-material/VideocamOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ACCOUNT_DEACTIVATED_TEXT } from '@contracts/safety';
import { useCurrentUser } from '@/lib/current-user';
import { useDocumentTitle } from '@/lib/use-document-title';
import { BlockReportMenu } from './block-report-dialog';
import { ChatFiltersDialog, DEFAULT_SETTINGS } from './chat-filters-dialog';
import { NoMatchHint, useWaitedLong } from './no-match-hint';
import { useLivelyChat, type ChatMatch, type ChatStatus } from './use-lively-chat';
import { PartnerPhotos } from './partner-photos';
import { VideoPanel } from './video-panel';

/** SPEC §4 status titles and descriptions. */
function statusText(
  socketOpen: boolean,
  status: ChatStatus,
  match: ChatMatch | null,
): { title: string; description: string } {
  if (status === 'error')
    return { title: 'Connection Error', description: 'Something went wrong with the chat connection.' };
  if (status === 'connected')
    return { title: 'Connected', description: `Chatting with ${match?.peerName || 'Anonymous'}` };
  if (status === 'matched') return { title: 'Match Found', description: 'Connecting to your match...' };
  if (status === 'finding_match') return { title: 'Finding Match', description: 'Searching for compatible matches...' };
  if (socketOpen) return { title: 'Ready to Connect', description: 'Ready to connect' };
  return { title: 'Connecting', description: 'Connecting to chat service...' };
}

/** SPEC §2 footer texts. */
function footerText(socketOpen: boolean, status: ChatStatus, match: ChatMatch | null): string {
  if (status === 'connected' && match)
    return `Connected to ${match.peerName} (${Math.round(match.score * 100)}% compatibility)`;
  if (status === 'matched') return 'Found someone! Connecting...';
  if (status === 'finding_match') return 'Searching for compatible matches...';
  return socketOpen ? 'Ready to connect' : 'Connecting to chat service...';
}

const STEPS = [
  {
    title: 'Set Preferences',
    text: 'Choose Smart Matching or Random Chat, an age range and an orientation in Filters.',
  },
  { title: 'Find Matches', text: 'We look for someone compatible who is online right now.' },
  { title: 'Start Chatting', text: 'Talk face to face. Press Next for someone new, or leave at any time.' },
];

/** Lively Chat (/chat, SPEC §2). */
export function ChatPage() {
  useDocumentTitle('Lively Chat');
  const { user } = useCurrentUser();
  const chat = useLivelyChat(user?.id ?? null, !!user?.ageVerified);
  const [settings, setSettings] = useState(DEFAULT_SETTINGS);
  const [filtersOpen, setFiltersOpen] = useState(false);
  /** The partner of the current or the last chat: they can be reported or blocked during the call and after it. */
  const [lastMatch, setLastMatch] = useState<ChatMatch | null>(null);
  if (chat.match && chat.match !== lastMatch) setLastMatch(chat.match);
  const searching = chat.chatting && chat.status === 'finding_match';
  const waitedLong = useWaitedLong(searching, chat.searches);

  if (!user) {
    return (
      <Container maxWidth="sm" sx={{ py: 6 }}>
        <Alert severity="warning">Login Required: Please log in to access the chat feature.</Alert>
      </Container>
    );
  }

  const { socketOpen, status, chatting, match } = chat;
  const recent = match ?? lastMatch;
  const safety = recent && (
    <BlockReportMenu
      match={recent}
      // Still chatting with them: move on, as Next does. Otherwise that chat is already over.
      onBlocked={(sessionId) => chat.match?.sessionId === sessionId && chat.next(settings)}
    />
  );
  const { title, description } = statusText(socketOpen, status, match);
  const connected = status === 'connected';

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, md: 4 } }}>
      <Stack spacing={3}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 800 }}>
            Lively Chat
          </Typography>
          <Button component={RouterLink} to="/profile-setup" variant="text">
            Edit chat profile
          </Button>
        </Stack>

        {chat.accountDeactivated && <Alert severity="error">{ACCOUNT_DEACTIVATED_TEXT}</Alert>}

        <Card>
          <CardContent>
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={2}
              sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
            >
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                <Box
                  data-testid="connection-dot"
                  role="img"
                  aria-label={socketOpen ? 'Connected to chat service' : 'Not connected to chat service'}
                  sx={{
                    width: 12,
                    height: 12,
                    borderRadius: '50%',
                    bgcolor: socketOpen ? 'success.main' : 'error.main',
                    flexShrink: 0,
                  }}
                />
                <Box>
                  <Typography variant="h6" component="h2" data-testid="chat-status-title">
                    {title}
                  </Typography>
                  <Typography color="textSecondary" data-testid="chat-status-description">
                    {description}
                  </Typography>
                </Box>
              </Stack>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                {match && (
                  <Chip
                    color="secondary"
                    data-testid="match-percentage"
                    label={`${Math.round(match.score * 100)}% Match`}
                  />
                )}
                <Button variant="outlined" startIcon={<Tune />} onClick={() => setFiltersOpen(true)}>
                  Filters
                </Button>
              </Stack>
            </Stack>
          </CardContent>
        </Card>

        {waitedLong && (
          <NoMatchHint
            mode={chat.queueMode ?? settings.mode}
            onWidenFilters={() => setFiltersOpen(true)}
            onSwitchToRandom={() => {
              const random = { ...settings, mode: 'random' as const };
              setSettings(random);
              chat.search(random);
            }}
          />
        )}

        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <VideoPanel
              testId="local-video"
              stream={chat.localStream}
              muted
              label="You"
              placeholder={!chat.localStream ? 'Loading camera...' : !chat.videoEnabled ? 'Video Off' : null}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <VideoPanel
              testId="remote-video"
              stream={chat.remoteStream}
              label={match?.peerName || 'Waiting for match...'}
              placeholder={chat.remoteStream ? null : 'No one connected'}
            />
            {match && <PartnerPhotos name={match.peerName || 'Anonymous'} photos={match.peerPhotos ?? []} />}
          </Grid>
        </Grid>

        <Stack direction="row" spacing={2} sx={{ justifyContent: 'center', flexWrap: 'wrap' }}>
          {!chatting ? (
            <>
              <Button size="large" variant="contained" disabled={!socketOpen} onClick={() => chat.start(settings)}>
                Start Chatting
              </Button>
              {safety}
            </>
          ) : (
            <>
              {connected && (
                <>
                  <IconButton
                    aria-label={chat.videoEnabled ? 'Turn video off' : 'Turn video on'}
                    onClick={chat.toggleVideo}
                    color={chat.videoEnabled ? 'primary' : 'error'}
                  >
                    {chat.videoEnabled ? <Videocam /> : <VideocamOff />}
                  </IconButton>
                  <IconButton
                    aria-label={chat.audioEnabled ? 'Mute microphone' : 'Unmute microphone'}
                    onClick={chat.toggleAudio}
                    color={chat.audioEnabled ? 'primary' : 'error'}
                  >
                    {chat.audioEnabled ? <Mic /> : <MicOff />}
                  </IconButton>
                </>
              )}
              <Button
                variant="outlined"
                startIcon={<SkipNext />}
                disabled={!(connected || status === 'finding_match')}
                onClick={() => chat.next(settings)}
              >
                Next
              </Button>
              {safety}
              <Button variant="contained" color="error" startIcon={<CallEnd />} onClick={chat.leave}>
                Leave Chat
              </Button>
            </>
          )}
        </Stack>

        <Typography align="center" color="textSecondary" data-testid="chat-footer">
          {footerText(socketOpen, status, match)}
        </Typography>

        {!chatting && (
          <Card variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                How Lively Chat Works
              </Typography>
              <Grid container spacing={2}>
                {STEPS.map((step, index) => (
                  <Grid key={step.title} size={{ xs: 12, md: 4 }}>
                    <Stack direction="row" spacing={1.5}>
                      <Box
                        sx={{
                          width: 28,
                          height: 28,
                          borderRadius: '50%',
                          bgcolor: 'primary.main',
                          color: 'primary.contrastText',
                          display: 'grid',
                          placeItems: 'center',
                          fontWeight: 700,
                          flexShrink: 0,
                        }}
                      >
                        {index + 1}
                      </Box>
                      <Box>
                        <Typography sx={{ fontWeight: 700 }}>{step.title}</Typography>
                        <Typography variant="body2" color="textSecondary">
                          {step.text}
                        </Typography>
                      </Box>
                    </Stack>
                  </Grid>
                ))}
              </Grid>
            </CardContent>
          </Card>
        )}
      </Stack>
      <ChatFiltersDialog
        open={filtersOpen}
        settings={settings}
        onChange={setSettings}
        onClose={() => {
          setFiltersOpen(false);
          // Still searching: search again with the filters as they are now.
          if (searching) chat.search(settings);
        }}
      />
    </Container>
  );
}
