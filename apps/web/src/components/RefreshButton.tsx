import Refresh from '@mui/icons-material/Refresh';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

/** The round refresh button of a list's toolbar, with its label as tooltip and accessible name. */
export function RefreshButton({ label, onClick, testId }: { label: string; onClick(): void; testId: string }) {
  return (
    <Tooltip title={label}>
      <IconButton onClick={onClick} aria-label={label} data-testid={testId}>
        <Refresh />
      </IconButton>
    </Tooltip>
  );
}
