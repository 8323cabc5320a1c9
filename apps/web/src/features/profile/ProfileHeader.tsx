import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { roleName, type UserView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { Timestamp } from '../../components/Timestamp.js';

/** Who is signed in: avatar, names, role, group and when the account was created. */
export function ProfileHeader({ user }: { user: UserView | undefined }) {
  const { t } = useTranslation('profile');
  const name = user?.display_name || user?.username || '';

  return (
    <Card
      sx={(theme) => ({
        mb: 2.5,
        background: `linear-gradient(120deg, ${alpha(theme.palette.primary.main, theme.palette.mode === 'light' ? 0.1 : 0.18)}, ${alpha(theme.palette.primary.main, 0)} 65%)`,
      })}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: { xs: 2, sm: 3 }, p: { xs: 2, sm: 3 }, flexWrap: 'wrap' }}>
        <Avatar
          src={user?.avatar_url || undefined}
          alt={name}
          sx={{
            width: 72,
            height: 72,
            fontSize: 30,
            fontWeight: 700,
            bgcolor: 'primary.main',
            color: 'primary.contrastText',
          }}
        >
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          {user ? (
            <>
              <Typography variant="h5" component="h1" data-testid="profile-heading" sx={{ overflowWrap: 'anywhere' }}>
                {name}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.25 }}>
                {`@${user.username}`}
                {user.email ? ` · ${user.email}` : ''}
              </Typography>
              <Stack direction="row" spacing={1} sx={{ mt: 1.25, flexWrap: 'wrap', rowGap: 1 }}>
                <Chip size="small" color="primary" label={t(`common:roles.${roleName(user.role)}`)} />
                <Chip size="small" variant="outlined" label={t('header.group', { group: user.group })} />
                <Chip size="small" variant="outlined" label={t('header.id', { id: user.id })} />
              </Stack>
            </>
          ) : (
            <>
              <Skeleton width={180} height={36} />
              <Skeleton width={140} />
            </>
          )}
        </Box>
        {user && user.created_time > 0 && (
          <Box sx={{ textAlign: { xs: 'left', sm: 'right' }, width: { xs: '100%', sm: 'auto' } }}>
            <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
              {t('header.memberSince')}
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 500 }}>
              <Timestamp value={user.created_time} />
            </Typography>
          </Box>
        )}
      </Box>
    </Card>
  );
}
