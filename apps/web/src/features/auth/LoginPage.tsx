import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { strings } from '../../i18n/strings.js';
import { ColorModeToggle } from '../../theme/ColorModeToggle.js';
import { SiteLogo } from '../site/SiteLogo.js';
import { siteName, useSiteInfo } from '../site/site.api.js';
import { LoginForm } from './LoginForm.js';

export function LoginPage() {
  const { siteInfo } = useSiteInfo();
  const name = siteName(siteInfo);
  const passwordLoginDisabled = siteInfo?.password_login === false;

  return (
    <Box component="main" sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: 6, position: 'relative' }}>
      <Box sx={{ position: 'absolute', top: 12, right: 12 }}>
        <ColorModeToggle />
      </Box>
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Stack spacing={3}>
            <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
              <SiteLogo name={name} logo={siteInfo?.logo} size={56} showName={false} />
              <Typography variant="h5" component="h1">
                {name}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {strings.login.subtitle}
              </Typography>
            </Stack>
            {passwordLoginDisabled && (
              <Alert severity="info" data-testid="password-login-disabled">
                {strings.login.passwordLoginDisabled}
              </Alert>
            )}
            <LoginForm disabled={passwordLoginDisabled} />
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
