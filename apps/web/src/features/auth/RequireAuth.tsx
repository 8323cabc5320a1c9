import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { strings } from '../../i18n/strings.js';
import { errorMessage, isApiError } from '../../lib/api.js';
import { useSelf } from './auth.api.js';

/** Renders `children` only for a signed-in user; a 401 from `/api/user/self` leads to the sign-in page. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const self = useSelf();
  const location = useLocation();

  if (self.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }} aria-busy="true">
        <CircularProgress aria-label={strings.app.loading} />
      </Box>
    );
  }
  if (self.isError) {
    if (isApiError(self.error, 401)) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
    return (
      <Box sx={{ maxWidth: 560, mx: 'auto', mt: 8, px: 2 }}>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void self.refetch()}>
              {strings.app.retry}
            </Button>
          }
        >
          {strings.panel.loadUserFailed} {errorMessage(self.error)}
        </Alert>
      </Box>
    );
  }
  return children;
}
