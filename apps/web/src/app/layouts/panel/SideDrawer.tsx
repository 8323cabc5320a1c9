import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Toolbar from '@mui/material/Toolbar';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { SiteLogo } from '../../../components/SiteLogo.js';
import { DRAWER_WIDTH, TOP_BAR_HEIGHT } from '../../../theme/layout.js';
import type { MenuGroup } from '../../menu/menu.js';
import { useAppActions, useAppState } from '../../state/AppStateProvider.js';
import { DrawerProfile } from './DrawerProfile.js';
import { MenuTree } from './MenuTree.js';

interface SideDrawerProps {
  menu: MenuGroup[];
  /** lg and up: the drawer pushes the page; below: it floats over it and closes on a choice. */
  largeScreen: boolean;
}

export function SideDrawer({ menu, largeScreen }: SideDrawerProps) {
  const { t } = useTranslation('shell');
  const { opened } = useAppState().customization;
  const { setMenu } = useAppActions();
  // Where the slide last came to rest: `data-settled` tells tests (screenshots) the drawer has stopped moving.
  const [restingOpen, setRestingOpen] = useState(opened);

  return (
    <Box
      component="nav"
      aria-label={t('drawer.navigation')}
      sx={{ width: { lg: DRAWER_WIDTH }, flexShrink: { lg: 0 } }}
    >
      <Drawer
        variant={largeScreen ? 'persistent' : 'temporary'}
        anchor="left"
        open={opened}
        onClose={() => setMenu(false)}
        ModalProps={{ keepMounted: true }}
        slotProps={{
          paper: {
            sx: { width: DRAWER_WIDTH, borderRight: 1, borderColor: 'divider', ...(largeScreen ? {} : { top: 0 }) },
          },
          transition: { onEntered: () => setRestingOpen(true), onExited: () => setRestingOpen(false) },
        }}
        data-testid="side-drawer"
        data-open={opened}
        data-settled={restingOpen === opened}
      >
        {largeScreen ? (
          <Toolbar sx={{ minHeight: { xs: 64, md: TOP_BAR_HEIGHT } }} />
        ) : (
          <Box
            component={RouterLink}
            to="/"
            sx={{ color: 'inherit', textDecoration: 'none', px: 2.5, pt: 2, display: 'block' }}
          >
            <SiteLogo height={40} />
          </Box>
        )}
        <Box sx={{ px: 1.5, pt: largeScreen ? 1.5 : 2.5, pb: 3, overflowY: 'auto', flex: 1 }}>
          <DrawerProfile />
          <MenuTree menu={menu} closeOnSelect={!largeScreen} />
        </Box>
      </Drawer>
    </Box>
  );
}
