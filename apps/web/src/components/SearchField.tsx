import Search from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import type { SxProps, Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState } from 'react';

interface SearchFieldProps {
  /** The search in force (usually from the URL, which stays the source of truth). */
  value: string;
  /** Called with the trimmed text a moment after typing stops. */
  onSearch(value: string): void;
  placeholder: string;
  /** The accessible name of the input. */
  label: string;
  /** `data-testid` of the input element. */
  testId: string;
  delayMs?: number;
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
}

/** A search box that reports its text a moment after typing stops. */
export function SearchField({
  value,
  onSearch,
  placeholder,
  label,
  testId,
  delayMs = 350,
  fullWidth,
  sx,
}: SearchFieldProps) {
  const [text, setText] = useState(value);
  // Searches this field has reported whose echo has not come back yet. The URL changes before the
  // page re-renders, so an echo can arrive after more has been typed: it must not replace that
  // text. Only a value from elsewhere (back/forward, a "clear search" button) replaces the text;
  // a trailing space being typed is kept either way.
  const inFlight = useRef<string[]>([]);
  useEffect(() => {
    const echo = inFlight.current.indexOf(value);
    if (echo >= 0) {
      inFlight.current = inFlight.current.slice(echo + 1);
      return;
    }
    inFlight.current = [];
    setText((current) => (current.trim() === value ? current : value));
  }, [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = window.setTimeout(() => {
      inFlight.current.push(text.trim());
      onSearch(text.trim());
    }, delayMs);
    return () => window.clearTimeout(timer);
  }, [text, value, onSearch, delayMs]);
  return (
    <TextField
      size="small"
      fullWidth={fullWidth}
      value={text}
      onChange={(event) => setText(event.target.value)}
      placeholder={placeholder}
      sx={sx}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search fontSize="small" />
            </InputAdornment>
          ),
        },
        htmlInput: { 'aria-label': label, 'data-testid': testId },
      }}
    />
  );
}
