import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface StatusScreenProps {
  /** A large figure or icon above the title, e.g. "404". */
  badge?: ReactNode;
  title: string;
  description: ReactNode;
  action?: ReactNode;
  testId?: string;
}

/** The centred screen used for 404, 403, "coming soon" and route errors. */
export function StatusScreen({ badge, title, description, action, testId }: StatusScreenProps) {
  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: { xs: 8, md: 12 } }} data-testid={testId}>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', maxWidth: 480 }}>
        {badge && (
          <Box
            sx={{
              typography: 'h2',
              fontWeight: 800,
              letterSpacing: '-0.04em',
              color: 'primary.main',
              lineHeight: 1,
              '& svg': { fontSize: 56 },
            }}
          >
            {badge}
          </Box>
        )}
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        <Typography sx={{ color: 'text.secondary' }}>{description}</Typography>
        {action && <Box sx={{ pt: 1 }}>{action}</Box>}
      </Stack>
    </Box>
  );
}
