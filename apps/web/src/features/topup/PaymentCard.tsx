import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../components/SectionCard.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { openPaymentPage, PayDialog } from './PayDialog.js';
import {
  checkAmount,
  formatMoney,
  MAX_TOP_UP_AMOUNT,
  type PaymentGateway,
  type PaymentOrder,
  parseDiscounts,
  quotePayment,
} from './payment.js';
import { useCreateOrder } from './topup.api.js';

const DEFAULT_PRESETS = [10, 20, 50, 100];

function SummaryLine({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.5 }}>
      <Typography
        variant="body2"
        sx={{ color: strong ? 'text.primary' : 'text.secondary', fontWeight: strong ? 600 : 400 }}
      >
        {label}
      </Typography>
      <Typography
        variant={strong ? 'subtitle1' : 'body2'}
        sx={{ fontWeight: strong ? 700 : 500, fontVariantNumeric: 'tabular-nums' }}
      >
        {value}
      </Typography>
    </Box>
  );
}

/** Buying quota through the server's payment gateways (only rendered when there are some). */
export function PaymentCard({ gateways }: { gateways: PaymentGateway[] }) {
  const { t } = useTranslation('topup');
  const siteInfo = useSiteInfo();
  const formatQuota = useQuotaFormatter();
  const createOrder = useCreateOrder();
  const [amountText, setAmountText] = useState('');
  const [touched, setTouched] = useState(false);
  const [uuid, setUuid] = useState(gateways[0]?.uuid ?? '');
  const [order, setOrder] = useState<PaymentOrder | null>(null);

  const minimum = siteInfo.PaymentMinAmount || 0;
  const discounts = useMemo(() => parseDiscounts(siteInfo.RechargeDiscount), [siteInfo.RechargeDiscount]);
  const presets = useMemo(() => {
    const discounted = Object.keys(discounts).map(Number).filter(Number.isInteger);
    const amounts = discounted.length > 0 ? discounted : DEFAULT_PRESETS;
    return [...new Set(amounts)]
      .filter((amount) => amount >= minimum && amount <= MAX_TOP_UP_AMOUNT)
      .sort((a, b) => a - b);
  }, [discounts, minimum]);
  const gateway = gateways.find((entry) => entry.uuid === uuid) ?? gateways[0];
  const problem = checkAmount(amountText, minimum);
  const amount = problem ? 0 : Number(amountText.trim());
  const quote = gateway && !problem ? quotePayment(amount, gateway, discounts, siteInfo.PaymentUSDRate) : null;

  const pay = () => {
    setTouched(true);
    if (problem || !gateway) return;
    createOrder.mutate(
      { uuid: gateway.uuid, amount },
      {
        onSuccess: (created) => {
          if (created.type !== 2) openPaymentPage(created);
          setOrder(created);
        },
      },
    );
  };

  return (
    <SectionCard
      column
      icon={<PaymentsOutlined />}
      title={t('pay.title')}
      subtitle={t('pay.subtitle')}
      testId="topup-payment"
      fill="none"
    >
      <Stack spacing={2.5}>
        <ToggleButtonGroup
          exclusive
          value={gateway?.uuid ?? ''}
          onChange={(_event, next: string | null) => next && setUuid(next)}
          aria-label={t('pay.gateway')}
          sx={{ flexWrap: 'wrap' }}
        >
          {gateways.map((entry) => (
            <ToggleButton
              key={entry.uuid}
              value={entry.uuid}
              sx={{ gap: 1, px: 2 }}
              data-testid={`topup-gateway-${entry.uuid}`}
            >
              {entry.icon && (
                <Box component="img" src={entry.icon} alt="" sx={{ width: 20, height: 20, objectFit: 'contain' }} />
              )}
              {entry.name}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Box>
          <TextField
            label={t('pay.amount')}
            value={amountText}
            onChange={(event) => setAmountText(event.target.value)}
            onBlur={() => setTouched(true)}
            error={touched && problem !== null}
            helperText={
              touched && problem
                ? t(`pay.problem.${problem}`, { minimum, maximum: MAX_TOP_UP_AMOUNT.toLocaleString() })
                : t('pay.amountHint')
            }
            slotProps={{
              input: { startAdornment: <InputAdornment position="start">{'$'}</InputAdornment> },
              htmlInput: { inputMode: 'numeric', 'data-testid': 'topup-amount' },
            }}
          />
          <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
            {presets.map((preset) => (
              <Chip
                key={preset}
                label={
                  discounts[String(preset)]
                    ? t('pay.presetDiscount', {
                        amount: preset,
                        percent: Math.round((1 - (discounts[String(preset)] ?? 1)) * 100),
                      })
                    : `$${preset}`
                }
                onClick={() => {
                  setAmountText(String(preset));
                  setTouched(true);
                }}
                color={amountText.trim() === String(preset) ? 'primary' : 'default'}
                variant={amountText.trim() === String(preset) ? 'filled' : 'outlined'}
              />
            ))}
          </Stack>
        </Box>
        {quote && (
          <Box sx={{ p: 2, borderRadius: '10px', bgcolor: 'action.hover' }} data-testid="topup-quote">
            <SummaryLine label={t('pay.receive')} value={formatQuota(amount * siteInfo.quota_per_unit)} />
            {quote.saved > 0 && (
              <SummaryLine label={t('pay.discount')} value={`-${formatMoney(quote.saved, quote.currency)}`} />
            )}
            {quote.fee > 0 && <SummaryLine label={t('pay.fee')} value={formatMoney(quote.fee, quote.currency)} />}
            <SummaryLine label={t('pay.total')} value={formatMoney(quote.pay, quote.currency)} strong />
          </Box>
        )}
        <Button variant="contained" size="large" onClick={pay} loading={createOrder.isPending} data-testid="topup-pay">
          {t('pay.submit')}
        </Button>
      </Stack>
      <PayDialog order={order} onClose={() => setOrder(null)} />
    </SectionCard>
  );
}
