import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import ArrowForwardRounded from '@mui/icons-material/ArrowForwardRounded';
import HubOutlined from '@mui/icons-material/HubOutlined';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../../hooks/useSession.js';
import { CONTAINER_MAX_WIDTH } from '../../theme/layout.js';

const features: Array<{ key: 'unified' | 'billing' | 'insight'; icon: ReactNode }> = [
  { key: 'unified', icon: <HubOutlined /> },
  { key: 'billing', icon: <AccountBalanceWalletOutlined /> },
  { key: 'insight', icon: <InsightsOutlined /> },
];

/** The home page when the administrator has set no content of their own. */
export function Landing() {
  const { t } = useTranslation('public');
  const { isSignedIn } = useSession();

  return (
    <Box data-testid="landing">
      <Box
        sx={{
          position: 'relative',
          overflow: 'hidden',
          borderBottom: 1,
          borderColor: 'divider',
          background: (theme) =>
            `radial-gradient(60rem 28rem at 50% -10%, ${alpha(theme.palette.primary.main, theme.palette.mode === 'light' ? 0.12 : 0.22)}, transparent 70%)`,
        }}
      >
        <Container maxWidth="md" sx={{ py: { xs: 9, md: 14 }, textAlign: 'center' }}>
          <Stack spacing={3} sx={{ alignItems: 'center' }}>
            <Chip label={t('home.eyebrow')} color="primary" variant="outlined" size="small" />
            <Typography
              variant="h2"
              component="h1"
              sx={{ fontSize: { xs: '2.25rem', md: '3.25rem' }, lineHeight: 1.12, maxWidth: 720 }}
            >
              {t('home.headline')}
            </Typography>
            <Typography sx={{ color: 'text.secondary', fontSize: { xs: '1rem', md: '1.125rem' }, maxWidth: 620 }}>
              {t('home.tagline')}
            </Typography>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ pt: 1 }}>
              <Button
                component={RouterLink}
                to={isSignedIn ? '/panel' : '/login'}
                variant="contained"
                size="large"
                endIcon={<ArrowForwardRounded />}
                data-testid="landing-cta"
              >
                {isSignedIn ? t('home.openConsole') : t('home.signIn')}
              </Button>
            </Stack>
          </Stack>
        </Container>
      </Box>
      <Container maxWidth={false} sx={{ maxWidth: { md: CONTAINER_MAX_WIDTH }, py: { xs: 6, md: 9 } }}>
        <Grid container spacing={2.5} sx={{ maxWidth: 1080, mx: 'auto' }}>
          {features.map(({ key, icon }) => (
            <Grid key={key} size={{ xs: 12, md: 4 }}>
              <Card sx={{ height: '100%' }}>
                <CardContent sx={{ p: 3 }}>
                  <Box
                    aria-hidden
                    sx={{
                      width: 40,
                      height: 40,
                      borderRadius: '10px',
                      display: 'grid',
                      placeItems: 'center',
                      mb: 2,
                      color: 'primary.main',
                      bgcolor: (theme) => alpha(theme.palette.primary.main, 0.1),
                    }}
                  >
                    {icon}
                  </Box>
                  <Typography variant="h6" component="h2" sx={{ mb: 0.75 }}>
                    {t(`home.${key}Title`)}
                  </Typography>
                  <Typography variant="body2" sx={{ color: 'text.secondary', lineHeight: 1.7 }}>
                    {t(`home.${key}Body`)}
                  </Typography>
                </CardContent>
              </Card>
            </Grid>
          ))}
        </Grid>
      </Container>
    </Box>
  );
}
