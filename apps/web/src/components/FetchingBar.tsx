import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';

/** A thin progress line while a list reloads; its 2 px are kept when idle so nothing moves. */
export function FetchingBar({ active }: { active: boolean }) {
  return <Box sx={{ height: 2 }}>{active && <LinearProgress sx={{ height: 2 }} />}</Box>;
}
