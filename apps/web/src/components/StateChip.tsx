import Chip from '@mui/material/Chip';
import { alpha } from '@mui/material/styles';

export type StateColor = 'primary' | 'secondary' | 'success' | 'info' | 'warning' | 'error';

/**
 * A row's state as a small tinted chip, readable in both themes (light text on dark, dark text
 * on light). `state` is also exposed as `data-state` for tests and styling.
 */
export function StateChip({
  label,
  state,
  color,
  testId,
  maxWidth,
}: {
  label: string;
  state?: string | undefined;
  color: StateColor;
  testId?: string | undefined;
  /** Long labels (a group's name) end in an ellipsis past this width. */
  maxWidth?: number;
}) {
  return (
    <Chip
      size="small"
      label={label}
      data-testid={testId}
      data-state={state}
      sx={(theme) => ({
        height: 24,
        maxWidth,
        fontWeight: 600,
        color: theme.palette.mode === 'dark' ? theme.palette[color].light : theme.palette[color].dark,
        bgcolor: alpha(theme.palette[color].main, theme.palette.mode === 'dark' ? 0.18 : 0.1),
        border: `1px solid ${alpha(theme.palette[color].main, 0.28)}`,
      })}
    />
  );
}
