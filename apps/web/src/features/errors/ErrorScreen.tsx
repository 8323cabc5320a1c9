import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface ErrorScreenProps {
  code?: string;
  title: string;
  description: string;
  action: ReactNode;
}

export function ErrorScreen({ code, title, description, action }: ErrorScreenProps) {
  return (
    <Box component="main" sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: 8 }}>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', maxWidth: 440 }}>
        {code && (
          <Typography variant="h2" component="p" sx={{ fontWeight: 800, color: 'primary.main' }}>
            {code}
          </Typography>
        )}
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        <Typography sx={{ color: 'text.secondary' }}>{description}</Typography>
        <Box sx={{ pt: 1 }}>{action}</Box>
      </Stack>
    </Box>
  );
}
