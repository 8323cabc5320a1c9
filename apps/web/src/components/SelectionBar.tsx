import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Slide from '@mui/material/Slide';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** One button of a selection bar. */
export interface SelectionAction {
  label: string;
  onClick(): void;
  testId: string;
  icon?: ReactNode;
  variant?: 'text' | 'outlined' | 'contained';
  color?: 'primary' | 'inherit' | 'error';
}

interface SelectionBarProps {
  /** "N selected", already translated. */
  countText: string;
  countTestId: string;
  testId: string;
  actions: readonly SelectionAction[];
  /** After the buttons (a close icon). */
  end?: ReactNode;
  /**
   * Where it stands: a tinted band over the list (`inline`), or a card that slides up and stays at
   * the bottom of the window while the list scrolls (`floating`, shown while `open`).
   */
  placement: { kind: 'inline' } | { kind: 'floating'; open: boolean };
}

function ActionButtons({ actions }: { actions: readonly SelectionAction[] }) {
  return actions.map((action) => (
    <Button
      key={action.testId}
      size="small"
      variant={action.variant}
      color={action.color}
      startIcon={action.icon}
      onClick={action.onClick}
      data-testid={action.testId}
    >
      {action.label}
    </Button>
  ));
}

/** The bar of a list while rows are selected: how many, and what can be done to them. */
export function SelectionBar({ countText, countTestId, testId, actions, end, placement }: SelectionBarProps) {
  if (placement.kind === 'inline') {
    return (
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        data-testid={testId}
        sx={{
          px: 2,
          py: 1,
          alignItems: { sm: 'center' },
          bgcolor: (theme) => alpha(theme.palette.primary.main, theme.palette.mode === 'light' ? 0.08 : 0.16),
        }}
      >
        <Typography variant="body2" sx={{ fontWeight: 600, flex: 1 }} data-testid={countTestId}>
          {countText}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }} useFlexGap>
          <ActionButtons actions={actions} />
          {end}
        </Stack>
      </Stack>
    );
  }
  return (
    <Slide in={placement.open} direction="up" mountOnEnter unmountOnExit>
      <Box sx={{ position: 'sticky', bottom: 16, zIndex: (theme) => theme.zIndex.appBar - 1, mt: 2 }}>
        <Paper
          elevation={8}
          data-testid={testId}
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            gap: 1,
            px: 2,
            py: 1,
            borderRadius: 2,
            border: 1,
            borderColor: 'primary.main',
          }}
        >
          <Typography sx={{ fontWeight: 600, mr: 'auto' }} data-testid={countTestId}>
            {countText}
          </Typography>
          <ActionButtons actions={actions} />
          {end}
        </Paper>
      </Box>
    </Slide>
  );
}
