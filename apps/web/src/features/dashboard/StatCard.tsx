import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';

interface StatCardProps {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  testId: string;
  caption?: ReactNode;
  captionTestId?: string;
  loading?: boolean;
}

/** One figure with its label, a short explanation and an icon; the same height as its neighbours. */
export function StatCard({ label, value, icon, testId, caption, captionTestId, loading }: StatCardProps) {
  const labelId = useId();
  return (
    <Card component="section" aria-labelledby={labelId} sx={{ height: '100%' }}>
      <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center', p: 2.5, '&:last-child': { pb: 2.5 } }}>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography id={labelId} variant="body2" sx={{ color: 'text.secondary', fontWeight: 500 }} noWrap>
            {label}
          </Typography>
          {loading ? (
            <Skeleton width={96} height={32} />
          ) : (
            <Typography
              variant="h6"
              component="p"
              data-testid={testId}
              noWrap
              sx={{ fontWeight: 700, mt: 0.25, fontVariantNumeric: 'tabular-nums' }}
            >
              {value}
            </Typography>
          )}
          {caption && (
            <Typography
              variant="caption"
              component="p"
              data-testid={captionTestId}
              sx={{ color: 'text.secondary', display: 'block', lineHeight: 1.4 }}
            >
              {caption}
            </Typography>
          )}
        </Box>
        <Box
          aria-hidden
          sx={{
            display: 'grid',
            placeItems: 'center',
            flexShrink: 0,
            width: 44,
            height: 44,
            borderRadius: '10px',
            color: 'primary.main',
            bgcolor: 'action.hover',
          }}
        >
          {icon}
        </Box>
      </CardContent>
    </Card>
  );
}
