import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useSelf } from '../../hooks/useSelf.js';
import { describeError } from '../../lib/notify.js';
import { InviteCard } from './InviteCard.js';
import { PaymentCard } from './PaymentCard.js';
import { PlansCard } from './PlansCard.js';
import { RedeemCard } from './RedeemCard.js';
import { type SelfWithInvites, usePaymentGateways } from './topup.api.js';

/** Top-up: redemption codes, online payment when the server offers gateways, and the invite link. */
export function TopupPage() {
  const { t } = useTranslation('topup');
  const self = useSelf<SelfWithInvites>();
  const gateways = usePaymentGateways();
  const hasGateways = Boolean(gateways.data && gateways.data.length > 0);

  return (
    <Box>
      <Typography variant="h4" component="h1">
        {t('title')}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mt: 0.5, mb: 3 }}>{t('subtitle')}</Typography>
      {self.isError && (
        <Alert severity="error" sx={{ mb: 2.5 }}>
          {describeError(self.error)}
        </Alert>
      )}
      <Box sx={{ mb: 2.5, '&:empty': { display: 'none' } }}>
        <PlansCard gateways={gateways.data ?? []} />
      </Box>
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Stack spacing={2.5} sx={{ height: '100%' }}>
            {hasGateways && gateways.data && <PaymentCard gateways={gateways.data} />}
            <RedeemCard user={self.data} />
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <InviteCard user={self.data} />
        </Grid>
      </Grid>
    </Box>
  );
}
