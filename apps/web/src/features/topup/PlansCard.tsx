import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { PayInstruction, PlanView, SubscriptionView, UserPaymentView } from '@one-hub/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BudgetAllowance } from '../../components/budgets/BudgetAllowance.js';
import { BudgetUsage } from '../../components/budgets/BudgetUsage.js';
import { SectionCard } from '../../components/SectionCard.js';
import { StateChip } from '../../components/StateChip.js';
import { userPlanQueryKey, useUserPlan } from '../../hooks/useUserPlan.js';
import { formatPaymentAmount, formatTime } from '../../lib/format.js';
import { activeSubscription } from '../../lib/userPlan.js';
import { GatewayPicker } from './GatewayPicker.js';
import { PayDialog } from './PayDialog.js';
import { openPaymentPage, releasePaymentTab, reservePaymentTab } from './paymentTab.js';
import { useAvailablePlans, useCreatePlanOrder } from './plans.api.js';

function PlanOffer({
  plan,
  current,
  busy,
  canPay,
  onBuy,
}: {
  plan: PlanView;
  current: boolean;
  busy: boolean;
  canPay: boolean;
  onBuy(): void;
}) {
  const { t } = useTranslation('plan');
  return (
    <Card
      variant="outlined"
      sx={{
        p: 2,
        display: 'flex',
        flexDirection: 'column',
        gap: 1.25,
        borderColor: current ? 'primary.main' : 'divider',
      }}
      data-testid={`topup-plan-${plan.id}`}
    >
      <Box>
        <Typography variant="subtitle1" sx={{ fontWeight: 700 }} data-testid={`topup-plan-name-${plan.id}`}>
          {plan.name}
        </Typography>
        {plan.description && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {plan.description}
          </Typography>
        )}
      </Box>
      <Typography variant="h5" component="p" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
        <span data-testid={`topup-plan-price-${plan.id}`}>{formatPaymentAmount(plan.price, plan.currency)}</span>
        <Box component="span" sx={{ color: 'text.secondary', fontWeight: 500, fontSize: '0.875rem', ml: 0.75 }}>
          {t('store.duration', { count: plan.duration_days })}
        </Box>
      </Typography>
      <BudgetAllowance budgets={plan.budgets} testId={`topup-plan-allowance-${plan.id}`} />
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {plan.fallback_to_balance ? t('store.fallback') : t('store.noFallback')}
      </Typography>
      <Typography variant="caption" sx={{ color: 'text.secondary' }} noWrap>
        {t('store.models', { models: plan.models.length > 0 ? plan.models.join(', ') : t('store.allModels') })}
      </Typography>
      <Box sx={{ flex: 1 }} />
      <Button
        variant={current ? 'outlined' : 'contained'}
        onClick={onBuy}
        loading={busy}
        disabled={!canPay}
        data-testid={`topup-plan-buy-${plan.id}`}
      >
        {current ? t('store.renew') : t('store.buy')}
      </Button>
    </Card>
  );
}

function CurrentSubscription({ subscription }: { subscription: SubscriptionView }) {
  const { t } = useTranslation('plan');
  return (
    <Box
      sx={{ p: 2, borderRadius: '10px', bgcolor: 'action.hover' }}
      data-testid="topup-subscription"
      data-plan-id={subscription.plan_id}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5, mb: 1.5 }}>
        <Typography variant="subtitle2" sx={{ mr: 0.5 }}>
          {t('current.title')}
        </Typography>
        <Typography variant="subtitle2" sx={{ fontWeight: 700 }} data-testid="topup-subscription-name">
          {subscription.plan_name}
        </Typography>
        <StateChip
          label={subscription.status === 'active' ? t('current.active') : t('current.expired')}
          state={subscription.status}
          color={subscription.status === 'active' ? 'success' : 'secondary'}
          testId="topup-subscription-status"
        />
        <Box sx={{ flex: 1 }} />
        <Typography variant="caption" sx={{ color: 'text.secondary' }} data-testid="topup-subscription-expires">
          {t('current.expires', { time: formatTime(subscription.expires_at) })}
          {' · '}
          {subscription.source === 'grant' ? t('current.granted') : t('current.bought')}
        </Typography>
      </Stack>
      {subscription.windows.length > 0 && (
        <BudgetUsage windows={subscription.windows} testId="topup-subscription-window" showScope={false} />
      )}
    </Box>
  );
}

/**
 * The plans on sale and the caller's subscription: buying one goes through a payment gateway and
 * the pay dialog of a top-up (form or QR code, then the order's status). Nothing is shown while
 * no plan is on sale and the caller has none.
 */
export function PlansCard({ gateways }: { gateways: UserPaymentView[] }) {
  const { t } = useTranslation('plan');
  const queryClient = useQueryClient();
  const plans = useAvailablePlans();
  const userPlan = useUserPlan();
  const createOrder = useCreatePlanOrder();
  const [uuid, setUuid] = useState(gateways[0]?.uuid ?? '');
  const [buying, setBuying] = useState<number | null>(null);
  const [order, setOrder] = useState<PayInstruction | null>(null);
  const subscription = activeSubscription(userPlan.data);
  const offers = plans.data ?? [];
  const gateway = gateways.find((entry) => entry.uuid === uuid) ?? gateways[0];

  if (offers.length === 0 && !subscription) return null;

  const buy = (plan: PlanView) => {
    if (!gateway) return;
    // WeChat Pay always answers with a QR code; the others may send the payer to a page.
    const tab = gateway.type === 'wxpay' ? null : reservePaymentTab();
    setBuying(plan.id);
    createOrder.mutate(
      { plan_id: plan.id, uuid: gateway.uuid },
      {
        onSuccess: (created) => {
          openPaymentPage(created, tab);
          setOrder(created);
        },
        onError: () => releasePaymentTab(tab),
        onSettled: () => setBuying(null),
      },
    );
  };

  return (
    <SectionCard
      icon={<WorkspacePremiumOutlined />}
      title={t('store.title')}
      subtitle={t('store.subtitle')}
      testId="topup-plans"
      fill="none"
    >
      <Stack spacing={2.5}>
        {subscription && <CurrentSubscription subscription={subscription} />}
        {offers.length > 0 &&
          (gateways.length > 0 ? (
            <Box>
              <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', mb: 0.75 }}>
                {t('store.gateway')}
              </Typography>
              <GatewayPicker
                gateways={gateways}
                value={gateway?.uuid ?? ''}
                onChange={setUuid}
                label={t('store.gateway')}
                testIdPrefix="topup-plan-gateway"
              />
            </Box>
          ) : (
            <Alert severity="info" data-testid="topup-plans-no-gateway">
              {t('store.noGateways')}
            </Alert>
          ))}
        {offers.length > 0 && (
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(240px, 1fr))' },
            }}
          >
            {offers.map((plan) => (
              <PlanOffer
                key={plan.id}
                plan={plan}
                current={subscription?.plan_id === plan.id}
                busy={buying === plan.id}
                canPay={gateway !== undefined && buying === null}
                onBuy={() => buy(plan)}
              />
            ))}
          </Box>
        )}
      </Stack>
      <PayDialog
        order={order}
        onClose={() => {
          setOrder(null);
          void queryClient.invalidateQueries({ queryKey: userPlanQueryKey });
        }}
      />
    </SectionCard>
  );
}
