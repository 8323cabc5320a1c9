import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useSiteInfo } from '../hooks/useSiteInfo.js';
import { LOGO_HEIGHT } from '../theme/layout.js';

interface SiteLogoProps {
  /** Also show the site name next to the mark. */
  showName?: boolean;
  /** Height of the logo image (spec §9: 50). */
  height?: number;
}

/** The site's logo (site info `logo`), or a monogram of its name when there is none or it fails to load. */
export function SiteLogo({ showName = true, height = LOGO_HEIGHT }: SiteLogoProps) {
  const { logo, system_name: name } = useSiteInfo();
  const [failedLogo, setFailedLogo] = useState<string | null>(null);
  const hasImage = Boolean(logo) && failedLogo !== logo;
  const markSize = Math.round(height * 0.72);

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25, minWidth: 0, height }}>
      {hasImage ? (
        <Box
          component="img"
          src={logo}
          alt={name}
          onError={() => setFailedLogo(logo)}
          sx={{ height, maxWidth: 180, objectFit: 'contain', display: 'block' }}
        />
      ) : (
        <Box
          aria-hidden
          sx={{
            width: markSize,
            height: markSize,
            flexShrink: 0,
            borderRadius: '28%',
            display: 'grid',
            placeItems: 'center',
            color: 'primary.contrastText',
            fontWeight: 800,
            fontSize: markSize * 0.48,
            background: (theme) =>
              `linear-gradient(135deg, ${theme.palette.primary.light} 0%, ${theme.palette.primary.dark} 100%)`,
          }}
        >
          {name.slice(0, 1).toUpperCase()}
        </Box>
      )}
      {showName && (!hasImage || height < LOGO_HEIGHT) && (
        <Typography component="span" noWrap sx={{ fontWeight: 700, fontSize: '1.0625rem', letterSpacing: '-0.01em' }}>
          {name}
        </Typography>
      )}
    </Box>
  );
}
