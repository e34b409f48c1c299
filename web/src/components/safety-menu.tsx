import Block from '@mui/icons-material/Block';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { lazy, Suspense, useState } from 'react';
import type { ReportTarget } from './safety-dialogs';

// The dialogs (their form fields, and the contract's validation with zod) load when one is first
// opened: the menu is on every post and profile, the dialogs rarely.
const BlockDialog = lazy(async () => ({ default: (await import('./safety-dialogs')).BlockDialog }));
const ReportDialog = lazy(async () => ({ default: (await import('./safety-dialogs')).ReportDialog }));

/**
 * The "⋮" menu on profiles, posts, messages and threads: Report (what `report` names) and, when
 * a `user` is given, Block that user.
 */
export function SafetyMenu({
  report,
  reportLabel = 'Report',
  user,
  onBlocked,
  label = 'More actions',
}: {
  report: ReportTarget;
  reportLabel?: string;
  user?: { id: string; name: string };
  onBlocked?: () => void;
  /** The button's accessible name. */
  label?: string;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<'block' | 'report' | null>(null);
  const choose = (next: 'block' | 'report') => {
    setAnchor(null);
    setDialog(next);
  };
  return (
    <>
      <IconButton
        aria-label={label}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ width: 44, height: 44 }}
      >
        <MoreVert />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => choose('report')} sx={{ minHeight: 44 }}>
          <ListItemIcon>
            <FlagOutlined fontSize="small" />
          </ListItemIcon>
          {reportLabel}
        </MenuItem>
        {user && (
          <MenuItem onClick={() => choose('block')} sx={{ minHeight: 44, color: 'error.main' }}>
            <ListItemIcon sx={{ color: 'inherit' }}>
              <Block fontSize="small" />
            </ListItemIcon>
            Block {user.name}
          </MenuItem>
        )}
      </Menu>
      <Suspense fallback={null}>
        {dialog === 'report' && <ReportDialog target={report} open onClose={() => setDialog(null)} />}
        {user && dialog === 'block' && (
          <BlockDialog
            target={{ userId: user.id }}
            name={user.name}
            open
            onClose={() => setDialog(null)}
            onBlocked={onBlocked}
          />
        )}
      </Suspense>
    </>
  );
}
