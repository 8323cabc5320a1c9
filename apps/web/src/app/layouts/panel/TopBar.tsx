import MenuOpenRounded from '@mui/icons-material/MenuOpenRounded';
import MenuRounded from '@mui/icons-material/MenuRounded';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { LanguageMenu } from '../../../components/LanguageMenu.js';
import { SiteLogo } from '../../../components/SiteLogo.js';
import { ThemeToggle } from '../../../components/ThemeToggle.js';
import { NoticeButton } from '../../../features/notice/NoticeButton.js';
import { DRAWER_WIDTH, TOP_BAR_HEIGHT } from '../../../theme/layout.js';
import { useAppActions, useAppState } from '../../state/AppStateProvider.js';
import { AvatarMenu } from './AvatarMenu.js';

/** `largeScreen`: the drawer sits under the bar (lg and up); below, the floating drawer covers the bar. */
export function TopBar({ largeScreen }: { largeScreen: boolean }) {
  const { t } = useTranslation('shell');
  const { opened } = useAppState().customization;
  const { toggleMenu } = useAppActions();

  return (
    <AppBar position="fixed" sx={{ zIndex: (theme) => (largeScreen ? theme.zIndex.drawer + 1 : theme.zIndex.appBar) }}>
      <Toolbar sx={{ minHeight: { xs: 64, md: TOP_BAR_HEIGHT }, gap: 1, px: { xs: 1.5, sm: 2.5 } }}>
        <Box
          sx={{
            width: { lg: DRAWER_WIDTH - 20 },
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            flexShrink: 0,
            minWidth: 0,
          }}
        >
          <Box
            component={RouterLink}
            to="/"
            data-testid="top-bar-logo"
            sx={{ color: 'inherit', textDecoration: 'none', display: { xs: 'none', sm: 'flex' }, flex: 1, minWidth: 0 }}
          >
            <SiteLogo height={40} />
          </Box>
          <Tooltip title={t('topBar.toggleDrawer')}>
            <IconButton
              onClick={toggleMenu}
              aria-label={t('topBar.toggleDrawer')}
              aria-expanded={opened}
              data-testid="drawer-toggle"
              sx={{ bgcolor: 'action.hover', color: 'text.primary' }}
            >
              {opened ? <MenuOpenRounded fontSize="small" /> : <MenuRounded fontSize="small" />}
            </IconButton>
          </Tooltip>
        </Box>
        <Stack direction="row" spacing={0.5} sx={{ display: { xs: 'none', md: 'flex' }, ml: 1 }}>
          <Button component={RouterLink} to="/" sx={{ color: 'text.secondary' }} data-testid="top-bar-home">
            {t('nav.home')}
          </Button>
          <Button component={RouterLink} to="/about" sx={{ color: 'text.secondary' }} data-testid="top-bar-about">
            {t('nav.about')}
          </Button>
        </Stack>
        <Box sx={{ flex: 1 }} />
        <NoticeButton />
        <ThemeToggle />
        <LanguageMenu />
        <AvatarMenu />
      </Toolbar>
    </AppBar>
  );
}
