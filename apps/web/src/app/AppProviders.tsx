import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { NotifyProvider } from '../components/NotifyProvider.js';
import { SiteBootstrap } from '../features/site/SiteBootstrap.js';
import { i18n } from '../i18n/index.js';
import { AppThemeProvider } from '../theme/AppThemeProvider.js';
import { createQueryClient } from './queryClient.js';
import { AppStateProvider } from './state/AppStateProvider.js';

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <AppStateProvider>
          <AppThemeProvider>
            <NotifyProvider>
              <SiteBootstrap>{children}</SiteBootstrap>
            </NotifyProvider>
          </AppThemeProvider>
        </AppStateProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
