import Box from '@mui/material/Box';
import { formatTime } from '../lib/format.js';

/** A Unix-seconds time as `YYYY-MM-DD HH:mm:ss` in a `<time>` element; nothing for 0. */
export function Timestamp({ value, testId }: { value: number | null | undefined; testId?: string }) {
  if (!value) return null;
  return (
    <Box
      component="time"
      dateTime={new Date(value * 1000).toISOString()}
      data-testid={testId}
      sx={{ fontVariantNumeric: 'tabular-nums' }}
    >
      {formatTime(value)}
    </Box>
  );
}
