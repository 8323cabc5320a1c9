import { QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from 'notistack';
import { type ReactNode, useState } from 'react';
import { ColorModeProvider } from '../theme/ColorModeProvider.js';
import { createQueryClient } from './queryClient.js';

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ColorModeProvider>
        <SnackbarProvider
          maxSnack={3}
          autoHideDuration={4000}
          anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
          preventDuplicate
        >
          {children}
        </SnackbarProvider>
      </ColorModeProvider>
    </QueryClientProvider>
  );
}
