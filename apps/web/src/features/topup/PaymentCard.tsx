import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ORDER_MAX_AMOUNT, type PayInstruction, type UserPaymentView } from '@one-hub/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionCard } from '../../components/SectionCard.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { formatPaymentAmount } from '../../lib/format.js';
import { describeError } from '../../lib/notify.js';
import { GatewayPicker } from './GatewayPicker.js';
import { PayDialog } from './PayDialog.js';
import { checkAmount, parseDiscounts, presetAmounts } from './payment.js';
import { openPaymentPage, releasePaymentTab, reservePaymentTab } from './paymentTab.js';
import { useCreateOrder, useOrderQuote } from './topup.api.js';

/** Typing "125" asks for one quote, not three: the amount is quoted once it stops changing. */
function useSettledValue<T>(value: T, delayMs = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

interface SummaryLineProps {
  label: string;
  value: string;
  strong?: boolean;
  testId: string;
}

function SummaryLine({ label, value, strong, testId }: SummaryLineProps) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, py: 0.5 }} data-testid={testId}>
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
export function PaymentCard({ gateways }: { gateways: UserPaymentView[] }) {
  const { t } = useTranslation('topup');
  const siteInfo = useSiteInfo();
  const formatQuota = useQuotaFormatter();
  const createOrder = useCreateOrder();
  const [amountText, setAmountText] = useState('');
  const [touched, setTouched] = useState(false);
  const [uuid, setUuid] = useState(gateways[0]?.uuid ?? '');
  const [order, setOrder] = useState<PayInstruction | null>(null);

  const minimum = siteInfo.PaymentMinAmount || 0;
  const discounts = useMemo(() => parseDiscounts(siteInfo.RechargeDiscount), [siteInfo.RechargeDiscount]);
  const presets = useMemo(() => presetAmounts(discounts, minimum), [discounts, minimum]);
  const gateway = gateways.find((entry) => entry.uuid === uuid) ?? gateways[0];
  const problem = checkAmount(amountText, minimum);
  const amount = problem ? null : Number(amountText.trim());
  const settledAmount = useSettledValue(amount);
  const quote = useOrderQuote(gateway?.uuid ?? '', settledAmount);
  // The quote on screen must be the one for the amount in the field, never a stale one.
  const shown = quote.data && quote.data.amount === amount && !quote.isPlaceholderData ? quote.data : null;
  const quoteError = quote.isError && settledAmount === amount ? describeError(quote.error) : null;

  const pay = () => {
    setTouched(true);
    if (amount === null || !gateway) return;
    // WeChat Pay always answers with a QR code; the others may send the payer to a page.
    const tab = gateway.type === 'wxpay' ? null : reservePaymentTab();
    createOrder.mutate(
      { uuid: gateway.uuid, amount },
      {
        onSuccess: (created) => {
          openPaymentPage(created, tab);
          setOrder(created);
        },
        onError: () => releasePaymentTab(tab),
      },
    );
  };
  const helper =
    touched && problem
      ? t(`pay.problem.${problem}`, { minimum, maximum: ORDER_MAX_AMOUNT.toLocaleString() })
      : (quoteError ?? t('pay.amountHint'));

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
        <GatewayPicker
          gateways={gateways}
          value={gateway?.uuid ?? ''}
          onChange={setUuid}
          label={t('pay.gateway')}
          testIdPrefix="topup-gateway"
        />
        <Box>
          <TextField
            label={t('pay.amount')}
            value={amountText}
            onChange={(event) => setAmountText(event.target.value)}
            onBlur={() => setTouched(true)}
            error={(touched && problem !== null) || quoteError !== null}
            helperText={helper}
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
                data-testid={`topup-preset-${preset}`}
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
        {shown && (
          <Box sx={{ p: 2, borderRadius: '10px', bgcolor: 'action.hover' }} data-testid="topup-quote">
            <SummaryLine label={t('pay.receive')} value={formatQuota(shown.quota)} testId="topup-quote-quota" />
            {shown.discount > 0 && (
              <SummaryLine
                label={t('pay.discount')}
                value={`-${formatPaymentAmount(shown.discount, shown.currency)}`}
                testId="topup-quote-discount"
              />
            )}
            {shown.fee > 0 && (
              <SummaryLine
                label={t('pay.fee')}
                value={formatPaymentAmount(shown.fee, shown.currency)}
                testId="topup-quote-fee"
              />
            )}
            <SummaryLine
              label={t('pay.total')}
              value={formatPaymentAmount(shown.order_amount, shown.currency)}
              strong
              testId="topup-quote-total"
            />
          </Box>
        )}
        <Button
          variant="contained"
          size="large"
          onClick={pay}
          loading={createOrder.isPending}
          disabled={quoteError !== null}
          data-testid="topup-pay"
        >
          {t('pay.submit')}
        </Button>
      </Stack>
      <PayDialog order={order} onClose={() => setOrder(null)} />
    </SectionCard>
  );
}
