import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { MouseEvent, ReactNode } from 'react';

interface RowIconButtonProps {
  /** The accessible name, and the tooltip unless `tooltip` is given. */
  label: string;
  tooltip?: string;
  onClick(event: MouseEvent<HTMLElement>): void;
  /** Pass it (even `false`) for a button that can be disabled. */
  disabled?: boolean;
  /** Turns red on hover (delete). */
  danger?: boolean;
  testId: string;
  /** The icon. */
  children: ReactNode;
}

/** A small icon button with a tooltip, for a row's actions. */
export function RowIconButton({ label, tooltip, onClick, disabled, danger, testId, children }: RowIconButtonProps) {
  const button = (
    <IconButton
      size="small"
      aria-label={label}
      onClick={onClick}
      disabled={disabled}
      data-testid={testId}
      sx={danger ? { '&:hover': { color: 'error.main' } } : undefined}
    >
      {children}
    </IconButton>
  );
  // A disabled button fires no mouse events, so its tooltip listens on a wrapper instead.
  return <Tooltip title={tooltip ?? label}>{disabled === undefined ? button : <span>{button}</span>}</Tooltip>;
}
