import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';

/**
 * `row`: a dashboard card, its parts centred and its label on one line.
 * `tile`: a site summary tile, its parts at the top, tighter on phones where the icon is left out.
 */
export type StatLayout = 'row' | 'tile';

const contentStyles = {
  row: { alignItems: 'center', p: 2.5, '&:last-child': { pb: 2.5 } },
  tile: { alignItems: 'flex-start', p: { xs: 2, sm: 2.5 }, '&:last-child': { pb: { xs: 2, sm: 2.5 } } },
} as const;

interface StatCardFrameProps {
  label: string;
  /** The figure and its caption, under the label. */
  children: ReactNode;
  /** What stands at the right: usually a `StatIcon`. */
  aside: ReactNode;
  layout?: StatLayout;
  testId?: string;
}

/** The card of one figure: its label, what follows it, and an icon (or a gauge) beside them. */
export function StatCardFrame({ label, children, aside, layout = 'row', testId }: StatCardFrameProps) {
  const labelId = useId();
  return (
    <Card component="section" aria-labelledby={labelId} sx={{ height: '100%' }} data-testid={testId}>
      <CardContent sx={{ display: 'flex', gap: 2, ...contentStyles[layout] }}>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography
            id={labelId}
            variant="body2"
            sx={{ color: 'text.secondary', fontWeight: 500 }}
            noWrap={layout === 'row'}
          >
            {label}
          </Typography>
          {children}
        </Box>
        {aside}
      </CardContent>
    </Card>
  );
}

/** The tinted square holding a stat card's icon; `hideOnPhones` leaves it out on the narrowest screens. */
export function StatIcon({ children, hideOnPhones = false }: { children: ReactNode; hideOnPhones?: boolean }) {
  return (
    <Box
      aria-hidden
      sx={{
        display: hideOnPhones ? { xs: 'none', sm: 'grid' } : 'grid',
        placeItems: 'center',
        flexShrink: 0,
        width: 44,
        height: 44,
        borderRadius: '10px',
        color: 'primary.main',
        bgcolor: 'action.hover',
      }}
    >
      {children}
    </Box>
  );
}

interface StatCardProps {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  /** `data-testid` of the figure. */
  testId: string;
  caption?: ReactNode;
  captionTestId?: string;
  loading?: boolean;
  layout?: StatLayout;
}

/** One figure with its label, a short explanation and an icon; the same height as its neighbours. */
export function StatCard({
  label,
  value,
  icon,
  testId,
  caption,
  captionTestId,
  loading,
  layout = 'row',
}: StatCardProps) {
  return (
    <StatCardFrame label={label} layout={layout} aside={<StatIcon hideOnPhones={layout === 'tile'}>{icon}</StatIcon>}>
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
      {caption && layout === 'row' && (
        <Typography
          variant="caption"
          component="p"
          data-testid={captionTestId}
          sx={{ color: 'text.secondary', display: 'block', lineHeight: 1.4 }}
        >
          {caption}
        </Typography>
      )}
      {/* A tile's caption may hold several lines of its own, and waits for the figure. */}
      {caption && layout === 'tile' && !loading && (
        <Box sx={{ color: 'text.secondary', typography: 'caption', lineHeight: 1.5, mt: 0.25 }}>{caption}</Box>
      )}
    </StatCardFrame>
  );
}
