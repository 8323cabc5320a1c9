import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppState } from '../app/state/AppStateProvider.js';
import { toLanguage } from '../i18n/languages.js';
import { fontStackFor } from './fonts.js';
import { createAppTheme } from './theme.js';

/** Builds the MUI theme from the customization state (theme, font family, border radius) and the language. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const { customization } = useAppState();
  const { i18n } = useTranslation();
  const language = toLanguage(i18n.resolvedLanguage ?? i18n.language) ?? 'zh_CN';
  const fontFamily = customization.fontFamily ?? fontStackFor(language);

  const theme = useMemo(
    () => createAppTheme({ mode: customization.theme, fontFamily, borderRadius: customization.borderRadius }),
    [customization.theme, fontFamily, customization.borderRadius],
  );

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
    </ThemeProvider>
  );
}
