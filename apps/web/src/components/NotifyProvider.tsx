import { alpha, styled } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { MaterialDesignContent, SnackbarProvider } from 'notistack';
import type { ReactNode } from 'react';
import { MAX_TOASTS, SMALL_SCREEN_TOAST_QUERY, toastDurations } from '../lib/notify.js';

const ToastContent = styled(MaterialDesignContent)(({ theme }) => ({
  borderRadius: theme.shape.borderRadius,
  fontFamily: theme.typography.fontFamily,
  fontSize: '0.875rem',
  fontWeight: 500,
  boxShadow: `0 10px 30px -10px ${alpha('#000', 0.35)}`,
  '&.notistack-MuiContent-default': {
    backgroundColor: theme.palette.mode === 'light' ? '#1f2128' : '#2a2d36',
  },
  '&.notistack-MuiContent-success': { backgroundColor: theme.palette.success.dark },
  '&.notistack-MuiContent-error': { backgroundColor: theme.palette.error.dark },
  '&.notistack-MuiContent-warning': { backgroundColor: theme.palette.warning.dark },
  '&.notistack-MuiContent-info': { backgroundColor: theme.palette.info.dark },
}));

const components = {
  default: ToastContent,
  success: ToastContent,
  error: ToastContent,
  warning: ToastContent,
  info: ToastContent,
};

/** notistack with the rules of spec §4 and §9; use lib/notify to show toasts. */
export function NotifyProvider({ children }: { children: ReactNode }) {
  const smallScreen = useMediaQuery(SMALL_SCREEN_TOAST_QUERY, { noSsr: true });
  return (
    <SnackbarProvider
      maxSnack={MAX_TOASTS}
      preventDuplicate
      autoHideDuration={toastDurations.default}
      anchorOrigin={{ vertical: smallScreen ? 'bottom' : 'top', horizontal: 'center' }}
      Components={components}
    >
      {children}
    </SnackbarProvider>
  );
}
