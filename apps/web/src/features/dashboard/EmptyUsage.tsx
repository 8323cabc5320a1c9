import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** Shown instead of the charts until the user's first request has been counted. */
export function EmptyUsage() {
  const { t } = useTranslation('dashboard');
  return (
    <Card component="section" data-testid="dashboard-empty">
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', px: 3, py: { xs: 5, md: 7 } }}>
        <Box
          aria-hidden
          sx={{
            display: 'grid',
            placeItems: 'center',
            width: 64,
            height: 64,
            borderRadius: '16px',
            color: 'primary.main',
            bgcolor: 'action.hover',
            '& svg': { fontSize: 32 },
          }}
        >
          <InsightsOutlined />
        </Box>
        <Box sx={{ maxWidth: 460 }}>
          <Typography variant="h6" component="h2">
            {t('empty.title')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.75 }}>
            {t('empty.description')}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1.5} sx={{ flexWrap: 'wrap', justifyContent: 'center', rowGap: 1.5 }}>
          <Button variant="contained" component={RouterLink} to="/panel/token" data-testid="dashboard-empty-token">
            {t('empty.createToken')}
          </Button>
          <Button variant="outlined" component={RouterLink} to="/panel/topup">
            {t('empty.topUp')}
          </Button>
        </Stack>
      </Stack>
    </Card>
  );
}
