import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import CardGiftcardOutlined from '@mui/icons-material/CardGiftcardOutlined';
import DataUsageOutlined from '@mui/icons-material/DataUsageOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import { type AnalyticsSummary, ChannelStatus, RedemptionStatus } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { StatCard } from '../../components/cards/StatCard.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { formatPaymentAmount } from '../../lib/format.js';
import { describeError } from '../../lib/notify.js';
import { useAnalyticsSummary } from './analytics.api.js';

const channelStatusColors: Record<number, string> = {
  [ChannelStatus.enabled]: 'success.main',
  [ChannelStatus.manuallyDisabled]: 'text.disabled',
  [ChannelStatus.autoDisabled]: 'warning.main',
};

/** "● 3 enabled  ● 1 disabled": one coloured dot and count per channel status. */
function ChannelBreakdown({ statuses }: { statuses: AnalyticsSummary['channel_statistics'] }) {
  const { t } = useTranslation('analytics');
  return (
    <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1.5 }}>
      {statuses.map((entry) => (
        <Box
          component="span"
          key={entry.status}
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
          data-testid={`analytics-channels-status-${entry.status}`}
        >
          <Box
            component="span"
            sx={{ width: 7, height: 7, borderRadius: '50%', bgcolor: channelStatusColors[entry.status] ?? 'info.main' }}
          />
          {t(`summary.channelStatus.${entry.status in channelStatusColors ? entry.status : 'other'}`, {
            count: entry.total_channels,
          })}
        </Box>
      ))}
    </Box>
  );
}

function sumBy<T>(rows: readonly T[], pick: (row: T) => number): number {
  return rows.reduce((total, row) => total + pick(row), 0);
}

/** The site's totals right now: balances, users, channels, redemption codes, paid top-ups. */
export function SummaryCards() {
  const { t } = useTranslation('analytics');
  const formatQuota = useQuotaFormatter();
  const summary = useAnalyticsSummary();
  const data = summary.data;
  const loading = summary.isPending;

  if (summary.isError) {
    return (
      <Alert
        severity="error"
        sx={{ mb: 2.5 }}
        action={
          <Button color="inherit" size="small" onClick={() => void summary.refetch()}>
            {t('common:retry')}
          </Button>
        }
      >
        {t('summary.error', { message: describeError(summary.error) })}
      </Alert>
    );
  }

  const users = data?.user_statistics;
  const channels = data?.channel_statistics ?? [];
  const codes = data?.redemption_statistic ?? [];
  const unused = codes.find((entry) => entry.status === RedemptionStatus.enabled);
  const redeemed = codes.find((entry) => entry.status === RedemptionStatus.redeemed);
  const orders = data?.order_statistics ?? [];

  // Channels and codes share the second row, with paid top-ups when there are any.
  const rowTwo = { xs: 12, sm: 6, md: orders.length > 0 ? 4 : 6 };

  return (
    <Grid container spacing={{ xs: 1.5, sm: 2.5 }} sx={{ mb: 2.5 }} data-testid="analytics-summary">
      <Grid size={{ xs: 6, md: 4 }}>
        <StatCard
          layout="tile"
          label={t('summary.totalQuota')}
          value={formatQuota(users?.total_quota ?? 0)}
          icon={<AccountBalanceWalletOutlined />}
          testId="analytics-card-total-quota"
          caption={t('summary.totalQuotaHint')}
          loading={loading}
        />
      </Grid>
      <Grid size={{ xs: 6, md: 4 }}>
        <StatCard
          layout="tile"
          label={t('summary.usedQuota')}
          value={formatQuota(users?.total_used_quota ?? 0)}
          icon={<DataUsageOutlined />}
          testId="analytics-card-used-quota"
          caption={t('summary.usedQuotaHint')}
          loading={loading}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <StatCard
          layout="tile"
          label={t('summary.users')}
          value={(users?.total_user ?? 0).toLocaleString()}
          icon={<PeopleAltOutlined />}
          testId="analytics-card-users"
          caption={t('summary.invitedUsers', { count: users?.total_inviter_user ?? 0 })}
          loading={loading}
        />
      </Grid>
      <Grid size={rowTwo}>
        <StatCard
          layout="tile"
          label={t('summary.channels')}
          value={sumBy(channels, (entry) => entry.total_channels).toLocaleString()}
          icon={<HubOutlined />}
          testId="analytics-card-channels"
          caption={channels.length > 0 ? <ChannelBreakdown statuses={channels} /> : t('summary.noChannels')}
          loading={loading}
        />
      </Grid>
      <Grid size={rowTwo}>
        <StatCard
          layout="tile"
          label={t('summary.redemptions')}
          value={(unused?.count ?? 0).toLocaleString()}
          icon={<CardGiftcardOutlined />}
          testId="analytics-card-redemptions"
          caption={
            <>
              <Box component="span" sx={{ display: 'block' }} data-testid="analytics-card-redemptions-unused">
                {t('summary.unusedQuota', { quota: formatQuota(unused?.quota ?? 0) })}
              </Box>
              <Box component="span" sx={{ display: 'block' }} data-testid="analytics-card-redemptions-redeemed">
                {t('summary.redeemedCodes', {
                  count: redeemed?.count ?? 0,
                  quota: formatQuota(redeemed?.quota ?? 0),
                })}
              </Box>
            </>
          }
          loading={loading}
        />
      </Grid>
      {orders.length > 0 && (
        <Grid size={rowTwo}>
          <StatCard
            layout="tile"
            label={t('summary.topUps')}
            value={formatQuota(sumBy(orders, (entry) => entry.quota))}
            icon={<PaymentsOutlined />}
            testId="analytics-card-topups"
            // Money per currency: dollars and yuan are never added together.
            caption={
              <Box component="span" data-testid="analytics-card-topups-money">
                {orders.map((entry) => formatPaymentAmount(entry.money, entry.order_currency)).join(' · ')}
              </Box>
            }
            loading={loading}
          />
        </Grid>
      )}
    </Grid>
  );
}
