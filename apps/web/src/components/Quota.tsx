import Box from '@mui/material/Box';
import { useQuotaFormatter } from '../hooks/useQuotaFormatter.js';

/**
 * A quota amount as the site shows it (`$2.47` or `1.2M`), with the exact number as a tooltip;
 * `precise` for the cost of one request (`$0.000124`).
 */
export function Quota({ value, testId, precise }: { value: number; testId?: string; precise?: boolean }) {
  const format = useQuotaFormatter();
  return (
    <Box
      component="span"
      title={value.toLocaleString()}
      data-testid={testId}
      sx={{ fontVariantNumeric: 'tabular-nums' }}
    >
      {format(value, precise)}
    </Box>
  );
}
