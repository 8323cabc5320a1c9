import LogoutRounded from '@mui/icons-material/LogoutRounded';
import ManageAccountsOutlined from '@mui/icons-material/ManageAccountsOutlined';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import Typography from '@mui/material/Typography';
import { roleName } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { menuItems } from '../../../components/menuItems.js';
import { UserAvatar } from '../../../components/UserAvatar.js';
import { useLogout } from '../../../hooks/useLogout.js';
import { useMenuAnchor } from '../../../hooks/useMenuAnchor.js';
import { useSession } from '../../../hooks/useSession.js';
import { notify } from '../../../lib/notify.js';

/** The avatar in the top bar: account settings (/panel/profile) and sign out (to "/"). */
export function AvatarMenu() {
  const { t } = useTranslation('shell');
  const { user } = useSession();
  const logout = useLogout();
  const navigate = useNavigate();
  const { show, close, menu } = useMenuAnchor(true);

  const signOut = () => {
    logout.mutate(undefined, {
      onSettled: () => {
        notify.info(t('topBar.signedOut'));
        void navigate('/', { replace: true });
      },
    });
  };

  return (
    <>
      <IconButton
        onClick={show}
        aria-label={t('topBar.accountMenu')}
        aria-haspopup="menu"
        data-testid="avatar-menu"
        sx={{ ml: 0.5, p: 0.5, borderRadius: '50%' }}
      >
        <UserAvatar size={34} />
      </IconButton>
      <Menu {...menu} slotProps={{ paper: { sx: { minWidth: 220 } } }}>
        <Box sx={{ px: 2, py: 1.25 }}>
          <Typography variant="subtitle2" noWrap>
            {user?.display_name || user?.username}
          </Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t(`common:roles.${roleName(user?.role ?? 0)}`)}
          </Typography>
        </Box>
        <Divider sx={{ my: 0.5 }} />
        {menuItems(
          [
            {
              testId: 'avatar-menu-profile',
              icon: <ManageAccountsOutlined fontSize="small" />,
              label: t('topBar.profile'),
              onClick: () => void navigate('/panel/profile'),
            },
            {
              testId: 'sign-out',
              icon: <LogoutRounded fontSize="small" />,
              label: t('topBar.signOut'),
              onClick: signOut,
            },
          ],
          close,
        )}
      </Menu>
    </>
  );
}
