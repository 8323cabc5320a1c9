import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Toolbar from '@mui/material/Toolbar';
import { useSnackbar } from 'notistack';
import { Outlet, Link as RouterLink, useNavigate } from 'react-router';
import { strings } from '../../i18n/strings.js';
import { ColorModeToggle } from '../../theme/ColorModeToggle.js';
import { useLogout } from '../auth/auth.api.js';
import { SiteLogo } from '../site/SiteLogo.js';
import { siteName, useSiteInfo } from '../site/site.api.js';

export function PanelLayout() {
  const { siteInfo } = useSiteInfo();
  const logout = useLogout();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();

  const signOut = () => {
    logout.mutate(undefined, {
      onSettled: () => {
        enqueueSnackbar(strings.panel.signedOut, { variant: 'info' });
        void navigate('/', { replace: true });
      },
    });
  };

  return (
    <>
      <AppBar position="sticky">
        <Toolbar sx={{ gap: 1 }}>
          <Box
            component={RouterLink}
            to="/panel"
            sx={{ color: 'inherit', textDecoration: 'none', flexGrow: 1, minWidth: 0 }}
          >
            <SiteLogo name={siteName(siteInfo)} logo={siteInfo?.logo} size={32} />
          </Box>
          <ColorModeToggle />
          <Button
            color="inherit"
            variant="outlined"
            startIcon={<LogoutOutlined />}
            onClick={signOut}
            loading={logout.isPending}
            data-testid="sign-out"
          >
            {strings.panel.signOut}
          </Button>
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="lg" sx={{ py: { xs: 3, md: 4 }, flex: 1 }}>
        <Outlet />
      </Container>
    </>
  );
}
