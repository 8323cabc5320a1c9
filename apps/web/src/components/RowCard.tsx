import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A label and its value, for the facts grid of a list's card on narrow screens. */
export type CardFact = [label: string, value: ReactNode];

interface RowCardProps {
  /** `data-testid` of the card (the same as the row's on wide screens). */
  testId: string;
  /** The top line: name, id, status chip…, laid out in a row. */
  header: ReactNode;
  facts: readonly CardFact[];
  /** More cells of the facts grid after the facts (a full-width one, say). */
  children?: ReactNode;
  /** The bottom bar under a divider: a switch and the row's actions. */
  footer: ReactNode;
  /** `flex-end` when the footer holds only the actions. */
  footerJustify?: 'space-between' | 'flex-end';
}

/** One row of a list as a card, for narrow screens: header, a two-column grid of facts, actions. */
export function RowCard({ testId, header, facts, children, footer, footerJustify = 'space-between' }: RowCardProps) {
  return (
    <Card variant="outlined" sx={{ boxShadow: 'none' }} data-testid={testId}>
      <Stack direction="row" spacing={1.5} sx={{ p: 2, pb: 1.5, alignItems: 'flex-start' }}>
        {header}
      </Stack>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.5, px: 2, pb: 1.5 }}>
        {facts.map(([label, value]) => (
          <Box key={label} sx={{ minWidth: 0 }}>
            <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
              {label}
            </Typography>
            <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
        {children}
      </Box>
      <Divider />
      <Stack
        direction="row"
        sx={{
          px: 1,
          py: 0.5,
          alignItems: 'center',
          justifyContent: footerJustify,
          ...(footerJustify === 'flex-end' ? { minHeight: 44 } : {}),
        }}
      >
        {footer}
      </Stack>
    </Card>
  );
}
