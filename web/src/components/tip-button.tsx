import VolunteerActivismOutlined from '@mui/icons-material/VolunteerActivismOutlined';
import Button from '@mui/material/Button';
import { lazy, Suspense, useState } from 'react';
import type { TipDialogProps } from './tip-dialog';

// The dialog (its fields, the balance query) loads when a member first tips: the button is on every post.
const TipDialog = lazy(async () => ({ default: (await import('./tip-dialog')).TipDialog }));

/** The small button that opens the tip dialog (post cards, creator pages, message threads). */
export function TipButton(props: Omit<TipDialogProps, 'open' | 'onClose'> & { variant?: 'text' | 'outlined' }) {
  const [open, setOpen] = useState(false);
  const { variant = 'text', ...dialog } = props;
  return (
    <>
      <Button
        size="small"
        variant={variant}
        onClick={() => setOpen(true)}
        startIcon={<VolunteerActivismOutlined />}
        sx={{ minHeight: 44 }}
      >
        Tip
      </Button>
      <Suspense fallback={null}>{open && <TipDialog {...dialog} open onClose={() => setOpen(false)} />}</Suspense>
    </>
  );
}
