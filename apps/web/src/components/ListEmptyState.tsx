import Stack from '@mui/material/Stack';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import Typography from '@mui/material/Typography';
import type { ComponentType, ReactNode } from 'react';

interface ListEmptyStateProps {
  /** A Material icon; it is drawn large and faint above the title. */
  icon: ComponentType<SvgIconProps>;
  title: string;
  description: ReactNode;
  /** A button under the text, e.g. "create" or "clear search". */
  action?: ReactNode;
  testId?: string;
}

/** What a list card shows in place of its table when there are no rows. */
export function ListEmptyState({ icon: Icon, title, description, action, testId }: ListEmptyStateProps) {
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center', py: 8, px: 2 }} data-testid={testId}>
      <Icon sx={{ fontSize: 44, color: 'text.disabled' }} />
      <Typography variant="h6" component="p">
        {title}
      </Typography>
      <Typography sx={{ color: 'text.secondary', maxWidth: 420 }}>{description}</Typography>
      {action}
    </Stack>
  );
}
