import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { SiteLogo } from '../../components/SiteLogo.js';

interface AuthCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Links under the card's content, separated from it by a rule. */
  footer?: ReactNode;
  testId?: string;
}

/** The centred card every sign-in page uses: logo, title, the form, then links. */
export function AuthCard({ title, subtitle, children, footer, testId }: AuthCardProps) {
  return (
    <Box
      sx={{ flex: 1, display: 'grid', placeItems: 'center', px: { xs: 1.5, sm: 2 }, py: { xs: 3, md: 8 } }}
      data-testid={testId}
    >
      <Card sx={{ width: '100%', maxWidth: 440 }}>
        <CardContent sx={{ p: { xs: 2.5, sm: 4.5 }, '&:last-child': { pb: { xs: 2.5, sm: 4 } } }}>
          <Stack spacing={3.5}>
            <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
              <SiteLogo showName={false} height={56} />
              <Box>
                <Typography variant="h5" component="h1">
                  {title}
                </Typography>
                {subtitle && (
                  <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.75 }}>
                    {subtitle}
                  </Typography>
                )}
              </Box>
            </Stack>
            {children}
            {footer && (
              <Box
                sx={{
                  pt: 2.5,
                  borderTop: 1,
                  borderColor: 'divider',
                  display: 'flex',
                  justifyContent: 'center',
                  flexWrap: 'wrap',
                  columnGap: 2,
                  rowGap: 1,
                  typography: 'body2',
                  color: 'text.secondary',
                  textAlign: 'center',
                }}
              >
                {footer}
              </Box>
            )}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
