import Avatar from '@mui/material/Avatar';
import { useSession } from '../hooks/useSession.js';

/** The user's avatar_url, or a monogram of their name as the default image. */
export function UserAvatar({ size = 36 }: { size?: number }) {
  const { user } = useSession();
  const name = user?.display_name || user?.username || '';
  return (
    <Avatar
      src={user?.avatar_url || undefined}
      alt={name}
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.42,
        fontWeight: 700,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
      }}
    >
      {name.slice(0, 1).toUpperCase()}
    </Avatar>
  );
}
