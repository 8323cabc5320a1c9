import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';

/**
 * True on screens narrower than `breakpoint`, where lists show cards instead of a table. Read
 * without server rendering so the first paint already has the right layout.
 */
export function useCompact(breakpoint: 'sm' | 'md'): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down(breakpoint), { noSsr: true });
}
