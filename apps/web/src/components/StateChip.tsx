import Chip from '@mui/material/Chip';
import { alpha, type Theme } from '@mui/material/styles';

export type StateColor = 'primary' | 'secondary' | 'success' | 'info' | 'warning' | 'error';

/**
 * The tint of a chip in one of the palette's colours, readable in both themes (light text on dark,
 * dark text on light): its text colour, a light wash of the colour, and (unless left out) a thin border.
 */
export function chipTint(theme: Theme, color: StateColor, border = true) {
  const palette = theme.palette[color];
  const dark = theme.palette.mode === 'dark';
  return {
    color: dark ? palette.light : palette.dark,
    bgcolor: alpha(palette.main, dark ? 0.18 : 0.1),
    ...(border ? { border: `1px solid ${alpha(palette.main, 0.28)}` } : {}),
  };
}

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
        ...chipTint(theme, color),
      })}
    />
  );
}
