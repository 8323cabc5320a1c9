import Avatar from '@mui/material/Avatar';
import { alpha } from '@mui/material/styles';

/** A model maker's (owner's) icon when the site has one, else its initial on a tinted square. */
export function OwnerAvatar({ name, icon, size = 22 }: { name: string; icon?: string; size?: number }) {
  return (
    <Avatar
      src={icon || undefined}
      alt=""
      variant="rounded"
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.5,
        fontWeight: 700,
        borderRadius: '6px',
        color: 'primary.main',
        bgcolor: (theme) => alpha(theme.palette.primary.main, theme.palette.mode === 'light' ? 0.1 : 0.2),
      }}
    >
      {(name.trim()[0] ?? '?').toUpperCase()}
    </Avatar>
  );
}
