import ExpandMore from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface FoldedSectionProps {
  title: string;
  hint: string;
  expanded: boolean;
  onExpand(open: boolean): void;
  /** `data-testid` of the heading that folds and unfolds it. */
  testId: string;
  /** Space between the fields, in theme spacing units. */
  spacing?: number;
  children: ReactNode;
}

/** A form's less common fields, folded under a heading and a one-line hint. */
export function FoldedSection({ title, hint, expanded, onExpand, testId, spacing = 2, children }: FoldedSectionProps) {
  return (
    <Accordion
      expanded={expanded}
      onChange={(_event, open) => onExpand(open)}
      disableGutters
      variant="outlined"
      sx={{ '&::before': { display: 'none' }, borderRadius: 1 }}
    >
      <AccordionSummary expandIcon={<ExpandMore />} data-testid={testId}>
        <Box>
          <Typography variant="subtitle2">{title}</Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {hint}
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails>
        <Stack spacing={spacing}>{children}</Stack>
      </AccordionDetails>
    </Accordion>
  );
}
