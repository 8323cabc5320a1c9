import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A titled group of fields in a dialog form: a fieldset whose legend is a small overline. */
export function FormSection({
  title,
  children,
  spacing = 2,
  columns = false,
}: {
  title: string;
  children: ReactNode;
  /** The gap between the fields, in theme spacing units. */
  spacing?: number;
  /** Lay the fields out two by two from the small breakpoint up. */
  columns?: boolean;
}) {
  return (
    <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
      <Typography component="legend" variant="overline" sx={{ color: 'text.secondary', mb: 1, p: 0 }}>
        {title}
      </Typography>
      {columns ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: spacing }}>{children}</Box>
      ) : (
        <Stack spacing={spacing}>{children}</Stack>
      )}
    </Box>
  );
}
