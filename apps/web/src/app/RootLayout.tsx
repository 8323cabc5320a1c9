import Box from '@mui/material/Box';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { ServerStatusBanner } from '../features/site/ServerStatusBanner.js';
import { useSiteInfo } from '../features/site/site.api.js';

/** Wraps every page: loads the site status, keeps the document title in step, warns when the server is unreachable. */
export function RootLayout() {
  const { siteInfo, isUnreachable } = useSiteInfo();
  const systemName = siteInfo?.system_name;

  useEffect(() => {
    if (systemName) document.title = systemName;
  }, [systemName]);

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <ServerStatusBanner visible={isUnreachable} />
      <Outlet />
    </Box>
  );
}
