import { alpha, createTheme, type Theme } from '@mui/material/styles';

export type ColorMode = 'light' | 'dark';

export interface ThemeSettings {
  mode: ColorMode;
  fontFamily: string;
  borderRadius: number;
}

/** A calm neutral base with one indigo accent; the dark palette is tuned separately, not inverted. */
const palettes = {
  light: {
    primary: { main: '#4f46e5', light: '#6d66f0', dark: '#3d35c4', contrastText: '#ffffff' },
    secondary: { main: '#52525b', contrastText: '#ffffff' },
    success: { main: '#15803d' },
    warning: { main: '#b45309' },
    error: { main: '#dc2626' },
    info: { main: '#0369a1' },
    background: { default: '#f6f7f9', paper: '#ffffff' },
    text: { primary: '#17181c', secondary: '#5d616c', disabled: '#a1a4ad' },
    divider: '#e6e7eb',
  },
  dark: {
    primary: { main: '#8f8cf9', light: '#aba9fb', dark: '#6f6bf2', contrastText: '#0c0c14' },
    secondary: { main: '#a1a1aa', contrastText: '#0c0c14' },
    success: { main: '#4ade80' },
    warning: { main: '#fbbf24' },
    error: { main: '#f87171' },
    info: { main: '#38bdf8' },
    background: { default: '#0e1014', paper: '#15171c' },
    text: { primary: '#eceef2', secondary: '#9ba0ab', disabled: '#5e636e' },
    divider: '#262932',
  },
} as const;

export function createAppTheme({ mode, fontFamily, borderRadius }: ThemeSettings): Theme {
  const base = createTheme({
    palette: { mode, ...palettes[mode] },
    shape: { borderRadius },
    typography: {
      fontFamily,
      fontSize: 14,
      h1: { fontWeight: 750, letterSpacing: '-0.025em' },
      h2: { fontWeight: 750, letterSpacing: '-0.02em' },
      h3: { fontWeight: 700, letterSpacing: '-0.02em' },
      h4: { fontWeight: 700, fontSize: '1.75rem', letterSpacing: '-0.015em' },
      h5: { fontWeight: 650, fontSize: '1.25rem', letterSpacing: '-0.01em' },
      h6: { fontWeight: 600, fontSize: '1.0625rem' },
      subtitle2: { fontWeight: 600 },
      overline: { fontWeight: 650, fontSize: '0.6875rem', letterSpacing: '0.08em', lineHeight: 2 },
      button: { textTransform: 'none', fontWeight: 600, letterSpacing: 0 },
    },
  });
  const { palette } = base;
  const softShadow =
    mode === 'light'
      ? `0 1px 2px ${alpha('#0f172a', 0.04)}, 0 8px 24px -12px ${alpha('#0f172a', 0.12)}`
      : `0 1px 2px ${alpha('#000', 0.4)}, 0 12px 32px -12px ${alpha('#000', 0.6)}`;
  const controlRadius = Math.max(borderRadius - 2, 4);

  return createTheme(base, {
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          body: { WebkitFontSmoothing: 'antialiased', MozOsxFontSmoothing: 'grayscale' },
          '::selection': { backgroundColor: alpha(palette.primary.main, 0.25) },
        },
      },
      MuiPaper: {
        defaultProps: { elevation: 0 },
        styleOverrides: { root: { backgroundImage: 'none' } },
      },
      MuiCard: {
        styleOverrides: { root: { border: `1px solid ${palette.divider}`, boxShadow: softShadow } },
      },
      MuiAppBar: {
        defaultProps: { elevation: 0, color: 'inherit' },
        styleOverrides: {
          root: {
            backgroundColor: alpha(palette.background.paper, 0.86),
            backdropFilter: 'saturate(180%) blur(10px)',
            borderBottom: `1px solid ${palette.divider}`,
          },
        },
      },
      MuiDrawer: {
        styleOverrides: { paper: { borderColor: palette.divider, backgroundColor: palette.background.paper } },
      },
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: { root: { borderRadius: controlRadius, paddingInline: 16 } },
      },
      MuiIconButton: {
        styleOverrides: { root: { borderRadius: controlRadius } },
      },
      MuiListItemButton: {
        styleOverrides: {
          root: {
            borderRadius: controlRadius,
            '&.Mui-selected': {
              backgroundColor: alpha(palette.primary.main, mode === 'light' ? 0.09 : 0.16),
              color: palette.primary.main,
              '& .MuiListItemIcon-root': { color: palette.primary.main },
              '&:hover': { backgroundColor: alpha(palette.primary.main, mode === 'light' ? 0.13 : 0.22) },
            },
          },
        },
      },
      MuiListItemIcon: {
        styleOverrides: { root: { minWidth: 36, color: palette.text.secondary } },
      },
      MuiMenu: {
        styleOverrides: { paper: { border: `1px solid ${palette.divider}`, boxShadow: softShadow, marginTop: 6 } },
      },
      MuiMenuItem: {
        styleOverrides: { root: { borderRadius: controlRadius - 2, marginInline: 6, minHeight: 38 } },
      },
      MuiTooltip: {
        styleOverrides: { tooltip: { fontSize: '0.75rem', fontWeight: 500, borderRadius: 6 } },
      },
      MuiDialog: {
        styleOverrides: { paper: { borderRadius: borderRadius + 4, border: `1px solid ${palette.divider}` } },
      },
      MuiChip: {
        styleOverrides: { root: { fontWeight: 500 } },
      },
      MuiTextField: { defaultProps: { fullWidth: true } },
      MuiOutlinedInput: {
        styleOverrides: { root: { borderRadius: controlRadius, backgroundColor: palette.background.paper } },
      },
      MuiAlert: { styleOverrides: { root: { borderRadius: controlRadius } } },
      MuiBreadcrumbs: { styleOverrides: { li: { fontSize: '0.8125rem' } } },
    },
  });
}
