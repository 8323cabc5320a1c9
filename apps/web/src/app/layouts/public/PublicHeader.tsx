import MenuRounded from '@mui/icons-material/MenuRounded';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { LanguageMenu } from '../../../components/LanguageMenu.js';
import { SiteLogo } from '../../../components/SiteLogo.js';
import { ThemeToggle } from '../../../components/ThemeToggle.js';
import { useMenuAnchor } from '../../../hooks/useMenuAnchor.js';
import { useSession } from '../../../hooks/useSession.js';
import { CONTAINER_MAX_WIDTH, TOP_BAR_HEIGHT } from '../../../theme/layout.js';
import { isActiveLink, publicLinks } from './publicLinks.js';

export function PublicHeader() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const { isSignedIn } = useSession();
  const navMenu = useMenuAnchor(true);
  const links = publicLinks.filter((link) => isSignedIn || !link.signedIn);
  const account = isSignedIn ? { to: '/panel', label: t('nav.console') } : { to: '/login', label: t('nav.login') };

  return (
    <AppBar position="sticky">
      <Container maxWidth={false} sx={{ maxWidth: { md: CONTAINER_MAX_WIDTH } }}>
        <Toolbar disableGutters sx={{ minHeight: { xs: 64, md: TOP_BAR_HEIGHT }, gap: 1 }}>
          <Box component={RouterLink} to="/" sx={{ color: 'inherit', textDecoration: 'none', mr: 3, minWidth: 0 }}>
            <SiteLogo height={40} />
          </Box>
          <Stack
            component="nav"
            direction="row"
            spacing={0.5}
            aria-label={t('nav.main')}
            sx={{ display: { xs: 'none', md: 'flex' } }}
          >
            {links.map((link) => {
              const active = isActiveLink(pathname, link.to);
              return (
                <Button
                  key={link.id}
                  component={RouterLink}
                  to={link.to}
                  aria-current={active ? 'page' : undefined}
                  data-testid={`public-nav-${link.id}`}
                  sx={{ color: active ? 'text.primary' : 'text.secondary', fontWeight: active ? 650 : 500, px: 1.5 }}
                >
                  {t(`nav.${link.id}`)}
                </Button>
              );
            })}
          </Stack>
          <Box sx={{ flex: 1 }} />
          <ThemeToggle />
          <LanguageMenu />
          <Button
            component={RouterLink}
            to={account.to}
            variant="contained"
            data-testid="public-account-button"
            sx={{ ml: 1, display: { xs: 'none', md: 'inline-flex' } }}
          >
            {account.label}
          </Button>
          <IconButton
            color="inherit"
            aria-label={t('nav.openMenu')}
            aria-haspopup="menu"
            onClick={navMenu.show}
            data-testid="public-menu-button"
            sx={{ display: { xs: 'inline-flex', md: 'none' } }}
          >
            <MenuRounded />
          </IconButton>
          <Menu {...navMenu.menu} slotProps={{ paper: { sx: { minWidth: 200 } } }} data-testid="public-menu">
            {links.map((link) => (
              <MenuItem
                key={link.id}
                component={RouterLink}
                to={link.to}
                selected={isActiveLink(pathname, link.to)}
                onClick={navMenu.close}
              >
                {t(`nav.${link.id}`)}
              </MenuItem>
            ))}
            <Divider />
            <MenuItem component={RouterLink} to={account.to} onClick={navMenu.close} sx={{ fontWeight: 600 }}>
              {account.label}
            </MenuItem>
          </Menu>
        </Toolbar>
      </Container>
    </AppBar>
  );
}
