import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Snackbar from '@mui/material/Snackbar';
import { useCallback, useEffect, useRef } from 'react';
import { dismissToast, showToastKeptForReload, TOAST_DURATION_MS, useToast } from './toast';

const SWIPE_THRESHOLD_PX = 50;

/** Renders the visible toast; mount once near the root. */
export function Toaster() {
  const { toasts: items } = useToast();
  const regionRef = useRef<HTMLDivElement>(null);
  const swipeStart = useRef<number | null>(null);

  useEffect(showToastKeptForReload, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F8') regionRef.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const item = items[0];
  const close = useCallback(() => item && dismissToast(item.id), [item]);
  return (
    <div ref={regionRef} tabIndex={-1} aria-label="Notifications (F8)" role="region">
      {item && (
        <Snackbar
          key={item.id}
          open={item.open}
          autoHideDuration={item.duration ?? TOAST_DURATION_MS}
          onClose={(_event, reason) => reason !== 'clickaway' && close()}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          onPointerDown={(event) => (swipeStart.current = event.clientX)}
          onPointerUp={(event) => {
            if (swipeStart.current !== null && event.clientX - swipeStart.current > SWIPE_THRESHOLD_PX) close();
            swipeStart.current = null;
          }}
        >
          <Alert
            role="status"
            onClose={close}
            severity={item.variant === 'destructive' ? 'error' : 'success'}
            variant={item.variant === 'destructive' ? 'filled' : 'standard'}
            sx={{ width: '100%', maxWidth: 420, boxShadow: 3 }}
          >
            {item.title && <AlertTitle>{item.title}</AlertTitle>}
            {item.description}
          </Alert>
        </Snackbar>
      )}
    </div>
  );
}
