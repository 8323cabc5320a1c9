import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';

interface SiteLogoProps {
  name: string;
  logo: string | undefined;
  size?: number;
  showName?: boolean;
}

/** The site's logo image, or its initial when there is no logo or the image fails to load. */
export function SiteLogo({ name, logo, size = 36, showName = true }: SiteLogoProps) {
  const [failed, setFailed] = useState(false);
  const hasImage = Boolean(logo) && !failed;

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25, minWidth: 0 }}>
      <Avatar
        src={hasImage ? logo : undefined}
        alt={name}
        variant="rounded"
        slotProps={{ img: { onError: () => setFailed(true) } }}
        sx={{
          width: size,
          height: size,
          bgcolor: hasImage ? 'transparent' : 'primary.main',
          fontSize: size * 0.45,
          fontWeight: 700,
        }}
      >
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      {showName && (
        <Typography variant="h6" component="span" noWrap sx={{ fontWeight: 700 }}>
          {name}
        </Typography>
      )}
    </Box>
  );
}
