import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

interface IconTileProps {
  /** Width and height in pixels. */
  size: number;
  borderRadius: string;
  /** The icon's colour; the primary colour unless said otherwise (a switched-off state greys it). */
  color?: string;
  /** A thin border on the card's own background instead of a tinted fill (a step's number). */
  outlined?: boolean;
  sx?: SxProps<Theme>;
  children: ReactNode;
}

/** The square (or round) tile an icon or a step's number stands in, at the head of a card or a line. */
export function IconTile({
  size,
  borderRadius,
  color = 'primary.main',
  outlined = false,
  sx,
  children,
}: IconTileProps) {
  return (
    <Box
      aria-hidden
      sx={[
        { display: 'grid', placeItems: 'center', flexShrink: 0, width: size, height: size, borderRadius, color },
        outlined ? { border: 1, borderColor: 'divider' } : { bgcolor: 'action.hover' },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {children}
    </Box>
  );
}
