import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { UserAvatar } from '../../../components/UserAvatar.js';
import { useSession } from '../../../hooks/useSession.js';
import { useSiteInfo } from '../../../hooks/useSiteInfo.js';

/** The drawer's head: avatar (goes to the profile), username, a welcome line and the version chip. */
export function DrawerProfile() {
  const { t } = useTranslation('shell');
  const { user } = useSession();
  const { version } = useSiteInfo();
  const navigate = useNavigate();

  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        p: 1.5,
        mb: 1.5,
        borderRadius: '12px',
        border: 1,
        borderColor: 'divider',
        bgcolor: 'background.default',
      }}
      data-testid="drawer-profile"
    >
      <ButtonBase
        onClick={() => void navigate('/panel/profile')}
        aria-label={t('drawer.openProfile')}
        sx={{ borderRadius: '50%' }}
      >
        <UserAvatar size={42} />
      </ButtonBase>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography variant="subtitle2" noWrap data-testid="drawer-username">
          {user?.username}
        </Typography>
        <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }} noWrap>
          {t('drawer.welcomeBack')}
        </Typography>
        <Chip
          label={version || t('drawer.unknownVersion')}
          size="small"
          disabled
          variant="outlined"
          sx={{ mt: 0.5, height: 20, fontSize: 11 }}
          data-testid="drawer-version"
        />
      </Box>
    </Box>
  );
}
