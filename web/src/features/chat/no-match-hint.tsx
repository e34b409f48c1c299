import Shuffle from '@mui/icons-material/Shuffle';
import Tune from '@mui/icons-material/Tune';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useEffect, useState } from 'react';
import type { ChatMode } from '@contracts/chat';

/** How long a search runs before the page says why nothing happens. */
export const NO_MATCH_HINT_MS = 20_000;

/** True once `active` has held for `ms` without `restartKey` changing. */
export function useWaitedLong(active: boolean, restartKey: unknown, ms = NO_MATCH_HINT_MS): boolean {
  const [expiredKey, setExpiredKey] = useState<unknown>(undefined);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setExpiredKey(restartKey), ms);
    return () => clearTimeout(timer);
  }, [active, restartKey, ms]);
  return active && expiredKey === restartKey;
}

/** Shown after a long search: no one fits right now, and what the member can do about it. */
export function NoMatchHint({
  mode,
  onWidenFilters,
  onSwitchToRandom,
}: {
  mode: ChatMode;
  onWidenFilters: () => void;
  onSwitchToRandom: () => void;
}) {
  if (mode === 'random')
    return (
      <Alert severity="info" data-testid="no-match-hint">
        <AlertTitle>No one to chat with yet</AlertTitle>
        No one is free to chat right now. Stay here: we connect you as soon as someone is.
      </Alert>
    );
  return (
    <Alert severity="info" data-testid="no-match-hint">
      <AlertTitle>No match yet</AlertTitle>
      No one matching your filters is online right now. We keep looking; you can also widen your filters or chat with
      anyone.
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1.5 }}>
        <Button variant="outlined" size="small" startIcon={<Tune />} onClick={onWidenFilters} sx={{ minHeight: 44 }}>
          Widen filters
        </Button>
        <Button
          variant="contained"
          size="small"
          startIcon={<Shuffle />}
          onClick={onSwitchToRandom}
          sx={{ minHeight: 44 }}
        >
          Switch to Random Chat
        </Button>
      </Stack>
    </Alert>
  );
}
