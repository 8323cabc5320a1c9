import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';

interface StatCardProps {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  testId: string;
  caption?: ReactNode;
  captionTestId?: string;
}

export function StatCard({ label, value, icon, testId, caption, captionTestId }: StatCardProps) {
  const labelId = useId();
  return (
    <Card component="section" aria-labelledby={labelId} sx={{ height: '100%' }}>
      <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', p: 2.5 }}>
        <Box
          aria-hidden
          sx={{
            display: 'grid',
            placeItems: 'center',
            flexShrink: 0,
            width: 44,
            height: 44,
            borderRadius: 2.5,
            color: 'primary.main',
            bgcolor: 'action.hover',
          }}
        >
          {icon}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography id={labelId} variant="body2" sx={{ color: 'text.secondary', fontWeight: 500 }}>
            {label}
          </Typography>
          <Typography variant="h6" component="p" data-testid={testId} noWrap sx={{ fontWeight: 700, mt: 0.25 }}>
            {value}
          </Typography>
          {caption && (
            <Typography variant="caption" data-testid={captionTestId} sx={{ color: 'text.secondary' }} noWrap>
              {caption}
            </Typography>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}
