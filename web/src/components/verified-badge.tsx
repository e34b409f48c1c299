import VerifiedIcon from '@mui/icons-material/Verified';
import Tooltip from '@mui/material/Tooltip';

/** Beside a verified creator's name (issue 20): an icon with an accessible label. */
export function VerifiedBadge({ size = 'small' }: { size?: 'small' | 'medium' }) {
  return (
    <Tooltip title="Verified creator">
      <VerifiedIcon
        role="img"
        aria-label="Verified creator"
        aria-hidden={false}
        color="primary"
        fontSize={size}
        data-testid="verified-badge"
        sx={{ verticalAlign: 'middle', ml: 0.5, flexShrink: 0 }}
      />
    </Tooltip>
  );
}
