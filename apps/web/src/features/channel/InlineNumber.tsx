import InputBase from '@mui/material/InputBase';
import { alpha } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import { useEffect, useState } from 'react';

interface InlineNumberProps {
  value: number;
  /** The smallest whole number accepted. */
  min: number;
  /** Called with a valid new value when the field is left or Enter is pressed. */
  onCommit(value: number): void;
  /** The message shown while the text is not a whole number ≥ min. */
  invalidText: string;
  label: string;
  disabled?: boolean;
  testId: string;
}

/** A compact number cell edited in place: saved on Enter or blur, Escape puts the value back. */
export function InlineNumber({ value, min, onCommit, invalidText, label, disabled, testId }: InlineNumberProps) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const trimmed = text.trim();
  const valid = /^\d+$/.test(trimmed) && Number(trimmed) >= min;

  const commit = () => {
    if (!valid) return;
    const next = Number(trimmed);
    if (next !== value) onCommit(next);
  };

  return (
    <Tooltip title={valid ? '' : invalidText} open={!valid} placement="top" arrow>
      <InputBase
        value={text}
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') (event.target as HTMLInputElement).blur();
          if (event.key === 'Escape') setText(String(value));
        }}
        inputProps={{
          inputMode: 'numeric',
          'aria-label': label,
          title: label,
          'aria-invalid': !valid,
          'data-testid': testId,
        }}
        sx={(theme) => ({
          width: 56,
          fontSize: '0.8125rem',
          fontVariantNumeric: 'tabular-nums',
          borderRadius: 1,
          border: `1px solid ${valid ? 'transparent' : theme.palette.error.main}`,
          bgcolor: valid ? alpha(theme.palette.text.primary, 0.04) : alpha(theme.palette.error.main, 0.08),
          transition: 'border-color 120ms',
          '&:hover': { borderColor: valid ? theme.palette.divider : theme.palette.error.main },
          '&.Mui-focused': { borderColor: valid ? theme.palette.primary.main : theme.palette.error.main },
          '& input': { px: 1, py: 0.125, height: '1.25em', textAlign: 'right' },
        })}
      />
    </Tooltip>
  );
}
