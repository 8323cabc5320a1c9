import { alpha, createTheme, type Theme } from '@mui/material/styles';

export type ColorMode = 'light' | 'dark';

export const fontFamily = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  '"PingFang SC"',
  '"Hiragino Sans"',
  '"Hiragino Sans GB"',
  '"Noto Sans CJK SC"',
  '"Noto Sans SC"',
  '"Microsoft YaHei"',
  '"Yu Gothic UI"',
  'Meiryo',
  'sans-serif',
].join(', ');

const palettes = {
  light: {
    primary: { main: '#2563eb' },
    secondary: { main: '#7c3aed' },
    background: { default: '#f5f7fb', paper: '#ffffff' },
    text: { primary: '#111827', secondary: '#4b5563' },
    divider: '#e5e7eb',
  },
  dark: {
    primary: { main: '#60a5fa' },
    secondary: { main: '#a78bfa' },
    background: { default: '#0b1120', paper: '#111827' },
    text: { primary: '#f3f4f6', secondary: '#9ca3af' },
    divider: '#1f2937',
  },
} as const;

export function createAppTheme(mode: ColorMode): Theme {
  const base = createTheme({
    palette: { mode, ...palettes[mode] },
    shape: { borderRadius: 12 },
    typography: {
      fontFamily,
      h4: { fontWeight: 700, letterSpacing: '-0.01em' },
      h5: { fontWeight: 700 },
      h6: { fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
  });

  return createTheme(base, {
    components: {
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: { root: { borderRadius: 10 } },
      },
      MuiCard: {
        defaultProps: { elevation: 0 },
        styleOverrides: {
          root: {
            border: `1px solid ${base.palette.divider}`,
            boxShadow: `0 1px 2px ${alpha('#0f172a', mode === 'light' ? 0.04 : 0.3)}`,
          },
        },
      },
      MuiAppBar: {
        defaultProps: { elevation: 0, color: 'inherit' },
        styleOverrides: {
          root: {
            backgroundColor: base.palette.background.paper,
            borderBottom: `1px solid ${base.palette.divider}`,
          },
        },
      },
      MuiTextField: { defaultProps: { fullWidth: true } },
      MuiAlert: { styleOverrides: { root: { borderRadius: 10 } } },
    },
  });
}
