import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';
import { IconTile } from './IconTile.js';

interface SectionCardProps {
  icon: ReactNode;
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
  testId?: string;
  /** Stretch to the grid row's height, fill the rest of a column (`flex: 1`), or keep its own height. */
  fill?: 'height' | 'flex' | 'none';
  /** Lay the content out as a full-height column, so the last part can sit at the bottom of the card. */
  column?: boolean;
}

const fillStyles = { height: { height: '100%' }, flex: { flex: 1 }, none: {} } as const;
const columnStyles = { height: '100%', display: 'flex', flexDirection: 'column' } as const;

/** A card of the account screens: an icon, a title with one line of explanation, then the content. */
export function SectionCard({
  icon,
  title,
  subtitle,
  children,
  testId,
  fill = 'height',
  column = false,
}: SectionCardProps) {
  const titleId = useId();
  return (
    <Card component="section" aria-labelledby={titleId} sx={fillStyles[fill]} data-testid={testId}>
      <CardContent
        sx={{
          p: { xs: 2, sm: 3 },
          '&:last-child': { pb: { xs: 2, sm: 3 } },
          ...(column ? columnStyles : {}),
        }}
      >
        <Box sx={{ display: 'flex', gap: 1.75, alignItems: 'flex-start', mb: 2.5 }}>
          <IconTile size={40} borderRadius="10px">
            {icon}
          </IconTile>
          <Box sx={{ minWidth: 0 }}>
            <Typography id={titleId} variant="h6" component="h2">
              {title}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.25 }}>
              {subtitle}
            </Typography>
          </Box>
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}
