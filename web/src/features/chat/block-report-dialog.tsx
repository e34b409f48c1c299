import Block from '@mui/icons-material/Block';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { BlockDialog, ReportDialog } from '@/components/safety-dialogs';
import type { ChatMatch } from './use-lively-chat';

/**
 * Report or block the chat partner, during the call or right after it, with the dialogs, block
 * list and report queue used everywhere else. Both name the chat session: staff see its
 * participants and times, and the page never learns the partner's id. A dialog stays on the chat
 * it was opened for, even when that chat ends meanwhile; `onBlocked` moves on when it is still live.
 */
export function BlockReportMenu({
  match,
  onBlocked,
}: {
  match: ChatMatch;
  /** The blocked chat's session id. */
  onBlocked: (sessionId: string) => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<{ kind: 'report' | 'block'; match: ChatMatch } | null>(null);
  const name = match.peerName || 'Anonymous';
  const open = (kind: 'report' | 'block') => {
    setAnchor(null);
    setDialog({ kind, match });
  };
  return (
    <>
      <Button
        variant="outlined"
        color="warning"
        startIcon={<Block />}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ minHeight: 44 }}
      >
        Block or Report
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => open('report')} sx={{ minHeight: 44 }}>
          <ListItemIcon>
            <FlagOutlined fontSize="small" />
          </ListItemIcon>
          Report {name}
        </MenuItem>
        <MenuItem onClick={() => open('block')} sx={{ minHeight: 44, color: 'error.main' }}>
          <ListItemIcon sx={{ color: 'inherit' }}>
            <Block fontSize="small" />
          </ListItemIcon>
          Block {name}
        </MenuItem>
      </Menu>
      {dialog?.kind === 'report' && (
        <ReportDialog
          target={{ targetType: 'chat_session', targetId: dialog.match.sessionId }}
          open
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'block' && (
        <BlockDialog
          target={{ chatSessionId: dialog.match.sessionId }}
          name={dialog.match.peerName || 'Anonymous'}
          open
          onClose={() => setDialog(null)}
          onBlocked={() => onBlocked(dialog.match.sessionId)}
        />
      )}
    </>
  );
}
