import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { useTheme } from '@mui/material/styles';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Suspense, useEffect, useMemo } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PageLoader } from '../../../components/PageLoader.js';
import { PasswordChangeDialog } from '../../../features/profile/PasswordChangeDialog.js';
import { useSession } from '../../../hooks/useSession.js';
import { useSiteInfo } from '../../../hooks/useSiteInfo.js';
import { CONTAINER_MAX_WIDTH, DRAWER_WIDTH, TOP_BAR_HEIGHT } from '../../../theme/layout.js';
import { clearanceOf, consoleMenu, findMenuTrail, visibleMenu } from '../../menu/menu.js';
import { useAppActions, useAppState } from '../../state/AppStateProvider.js';
import { AppBreadcrumbs } from './AppBreadcrumbs.js';
import { SideDrawer } from './SideDrawer.js';
import { TopBar } from './TopBar.js';

/** The console layout at /panel: top bar, drawer menu, breadcrumbs and the page (spec §2). */
export function PanelLayout() {
  const theme = useTheme();
  const largeScreen = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  const clearance = clearanceOf(useSession().user?.role);
  const { opened } = useAppState().customization;
  const { setMenu, menuOpen } = useAppActions();
  const { pathname } = useLocation();
  const { UserInvoiceMonth: invoices } = useSiteInfo();
  const menu = useMemo(
    () => visibleMenu(consoleMenu, clearance, new Set(invoices ? (['invoice'] as const) : [])),
    [clearance, invoices],
  );
  const trail = findMenuTrail(menu, pathname);

  // The drawer starts open on large screens and closed below them.
  useEffect(() => setMenu(largeScreen), [largeScreen, setMenu]);

  // Highlight the menu item of the current route, also when it was reached by URL.
  const currentId = trail?.link.id;
  useEffect(() => {
    if (currentId) menuOpen(currentId);
  }, [currentId, menuOpen]);

  const shifted = largeScreen && opened;
  // Wide tables (logs, channels) would scroll sideways inside the centred column while the sides stay empty.
  const maxWidth = trail?.link.wide ? 'none' : CONTAINER_MAX_WIDTH;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <TopBar largeScreen={largeScreen} />
      <SideDrawer menu={menu} largeScreen={largeScreen} />
      <Box
        component="main"
        sx={{
          flex: 1,
          minWidth: 0,
          display: 'flex',
          flexDirection: 'column',
          ml: { lg: shifted ? 0 : `-${DRAWER_WIDTH}px` },
          transition: theme.transitions.create('margin', {
            easing: theme.transitions.easing.sharp,
            duration: theme.transitions.duration.shorter,
          }),
        }}
      >
        <Toolbar sx={{ minHeight: { xs: 64, md: TOP_BAR_HEIGHT } }} />
        <Container
          maxWidth={false}
          sx={{ maxWidth: { md: maxWidth }, px: { xs: 2, sm: 3 }, py: { xs: 2.5, md: 3 }, flex: 1 }}
          data-testid="panel-content"
        >
          <AppBreadcrumbs trail={trail} />
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Container>
      </Box>
      <PasswordChangeDialog />
    </Box>
  );
}
