import OpenInNewOutlined from '@mui/icons-material/OpenInNewOutlined';
import RedeemOutlined from '@mui/icons-material/RedeemOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { topUpBody } from '@one-hub/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Quota } from '../../components/Quota.js';
import { SectionCard } from '../../components/SectionCard.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { notify } from '../../lib/notify.js';
import { type SelfWithInvites, useRedeemCode } from './topup.api.js';

function BalancePanel({ user }: { user: SelfWithInvites | undefined }) {
  const { t } = useTranslation('topup');
  return (
    <Box
      sx={(theme) => ({
        p: { xs: 2, sm: 2.5 },
        mb: 3,
        borderRadius: `${theme.shape.borderRadius}px`,
        border: 1,
        borderColor: alpha(theme.palette.primary.main, 0.25),
        background: `linear-gradient(135deg, ${alpha(theme.palette.primary.main, theme.palette.mode === 'light' ? 0.1 : 0.2)}, ${alpha(theme.palette.primary.main, 0.02)})`,
        display: 'flex',
        flexWrap: 'wrap',
        gap: 3,
      })}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary', fontWeight: 500 }}>
          {t('balance.current')}
        </Typography>
        <Typography
          variant="h4"
          component="p"
          sx={{ fontWeight: 750, mt: 0.5, fontVariantNumeric: 'tabular-nums' }}
          data-testid="topup-balance"
        >
          {user ? <Quota value={user.quota} /> : <Skeleton width={120} />}
        </Typography>
      </Box>
      <Box sx={{ minWidth: 0, alignSelf: 'flex-end' }}>
        <Typography variant="body2" sx={{ color: 'text.secondary', fontWeight: 500 }}>
          {t('balance.used')}
        </Typography>
        <Typography variant="h6" component="p" sx={{ fontWeight: 650, fontVariantNumeric: 'tabular-nums' }}>
          {user ? <Quota value={user.used_quota} /> : <Skeleton width={80} />}
        </Typography>
      </Box>
    </Box>
  );
}

/** Where to buy codes: the administrator's top-up link, or the §8 notice that there is none. */
function BuyCodes() {
  const { t } = useTranslation('topup');
  const { top_up_link: topUpLink } = useSiteInfo();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1.5 }}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('redeem.needCode')}
      </Typography>
      {topUpLink ? (
        <Button
          variant="outlined"
          endIcon={<OpenInNewOutlined />}
          href={topUpLink}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="topup-buy"
        >
          {t('redeem.buy')}
        </Button>
      ) : (
        <Typography variant="body2" sx={{ color: 'text.disabled' }} data-testid="topup-no-link">
          {t('redeem.noLink')}
        </Typography>
      )}
    </Box>
  );
}

/** The balance and the redemption-code form (spec §5: the code is required). */
export function RedeemCard({ user }: { user: SelfWithInvites | undefined }) {
  const { t } = useTranslation('topup');
  const format = useQuotaFormatter();
  const redeem = useRedeemCode();
  const [key, setKey] = useState('');
  const [missing, setMissing] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = topUpBody.safeParse({ key });
    if (!parsed.success) {
      setMissing(true);
      return;
    }
    redeem.mutate(parsed.data, {
      onSuccess: (added) => {
        notify.success(t('redeem.success', { amount: format(Number(added) || 0) }));
        setKey('');
      },
    });
  };

  return (
    <SectionCard
      column
      icon={<RedeemOutlined />}
      title={t('redeem.title')}
      subtitle={t('redeem.subtitle')}
      testId="topup-redeem-card"
      fill="flex"
    >
      <BalancePanel user={user} />
      <Stack
        component="form"
        noValidate
        onSubmit={submit}
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { sm: 'flex-start' } }}
        aria-label={t('redeem.title')}
      >
        <TextField
          name="key"
          label={t('redeem.code')}
          placeholder={t('redeem.codePlaceholder')}
          value={key}
          onChange={(event) => {
            setKey(event.target.value);
            setMissing(false);
          }}
          error={missing}
          helperText={missing ? t('redeem.codeRequired') : ' '}
          autoComplete="off"
          slotProps={{ htmlInput: { 'data-testid': 'topup-code', spellCheck: false } }}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          loading={redeem.isPending}
          data-testid="topup-redeem"
          sx={{ flexShrink: 0, minWidth: 120, height: 56 }}
        >
          {t('redeem.submit')}
        </Button>
      </Stack>
      <Divider sx={{ mt: 'auto', mb: 2, pt: 2 }} />
      <BuyCodes />
    </SectionCard>
  );
}
