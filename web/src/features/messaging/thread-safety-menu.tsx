import Block from '@mui/icons-material/Block';
import FlagOutlined from '@mui/icons-material/FlagOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import type { Message } from '@contracts/messaging';
import { BlockDialog, ReportDialog, type ReportTarget } from '@/components/safety-dialogs';
import { formatDateTime } from '@/lib/format';
import { useThreadQuery } from './messaging-api';

/** How many of the other person's latest messages the picker offers. */
const PICKABLE = 20;

/** Which of the other person's messages to report (newest first). */
function MessagePicker({
  messages,
  onPick,
  onClose,
}: {
  messages: Message[];
  onPick: (message: Message) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Which message?</DialogTitle>
      <DialogContent>
        {messages.length === 0 ? (
          <Typography color="textSecondary">They have not sent you any messages.</Typography>
        ) : (
          <List disablePadding>
            {messages.map((message) => (
              <ListItemButton key={message.id} onClick={() => onPick(message)} sx={{ minHeight: 44 }}>
                <ListItemText
                  primary={message.locked ? 'Paid message (locked)' : message.content}
                  secondary={formatDateTime(message.createdAt)}
                  slotProps={{ primary: { noWrap: true } }}
                />
              </ListItemButton>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} sx={{ minHeight: 44 }}>
          Cancel
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The thread header's "⋮": report the other person or one of their messages, or block them. */
export function ThreadSafetyMenu({ otherUserId, otherName }: { otherUserId: string; otherName: string }) {
  const { data: messages = [] } = useThreadQuery(otherUserId);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [step, setStep] = useState<'pick' | 'block' | null>(null);
  const [report, setReport] = useState<ReportTarget | null>(null);
  const theirs = messages
    .filter((message) => message.senderId === otherUserId)
    .slice(-PICKABLE)
    .reverse();
  const choose = (next: () => void) => {
    setAnchor(null);
    next();
  };
  return (
    <>
      {/* Pushes the button to the header's end. */}
      <Box sx={{ flex: 1 }} />
      <IconButton
        aria-label={`More actions for ${otherName}`}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ width: 44, height: 44, flexShrink: 0 }}
      >
        <MoreVert />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => choose(() => setReport({ targetType: 'user', targetId: otherUserId }))}
          sx={{ minHeight: 44 }}
        >
          <ListItemIcon>
            <FlagOutlined fontSize="small" />
          </ListItemIcon>
          Report {otherName}
        </MenuItem>
        <MenuItem onClick={() => choose(() => setStep('pick'))} sx={{ minHeight: 44 }}>
          <ListItemIcon>
            <FlagOutlined fontSize="small" />
          </ListItemIcon>
          Report a message
        </MenuItem>
        <MenuItem onClick={() => choose(() => setStep('block'))} sx={{ minHeight: 44, color: 'error.main' }}>
          <ListItemIcon sx={{ color: 'inherit' }}>
            <Block fontSize="small" />
          </ListItemIcon>
          Block {otherName}
        </MenuItem>
      </Menu>
      {step === 'pick' && (
        <MessagePicker
          messages={theirs}
          onClose={() => setStep(null)}
          onPick={(message) => {
            setStep(null);
            setReport({ targetType: 'message', targetId: message.id });
          }}
        />
      )}
      {report && <ReportDialog target={report} open onClose={() => setReport(null)} />}
      <BlockDialog
        target={{ userId: otherUserId }}
        name={otherName}
        open={step === 'block'}
        onClose={() => setStep(null)}
      />
    </>
  );
}
