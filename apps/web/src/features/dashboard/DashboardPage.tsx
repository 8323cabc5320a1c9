import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import AddCardOutlined from '@mui/icons-material/AddCardOutlined';
import DataUsageOutlined from '@mui/icons-material/DataUsageOutlined';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import QueryStatsOutlined from '@mui/icons-material/QueryStatsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type DashboardRow, Role, roleName, type UserView } from '@one-hub/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { StatCard } from '../../components/cards/StatCard.js';
import { Quota } from '../../components/Quota.js';
import { useGroupName } from '../../hooks/useGroupName.js';
import { useSelf } from '../../hooks/useSelf.js';
import { useSession } from '../../hooks/useSession.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { useUserGroupMap } from '../../hooks/useUserGroupMap.js';
import { describeError } from '../../lib/notify.js';
import { BudgetWindowsCard } from './BudgetWindowsCard.js';
import { useDashboardRate, useDashboardUsage } from './dashboard.api.js';
import { EmptyUsage } from './EmptyUsage.js';
import { GettingStarted } from './GettingStarted.js';
import { ModelUsageCard } from './ModelUsageCard.js';
import { RateLimitCard } from './RateLimitCard.js';
import { ServiceStatusCard } from './ServiceStatusCard.js';
import { UsageTrendCard } from './UsageTrendCard.js';
import { dashboardDays, totalUsage, usageByDay } from './usage.js';

function Greeting({ user }: { user: UserView | undefined }) {
  const { t } = useTranslation('dashboard');
  const { user: sessionUser } = useSession();
  const name = user?.display_name || user?.username || sessionUser?.display_name || sessionUser?.username || '';
  const groupName = useGroupName();
  const groups = useUserGroupMap();

  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'flex-end',
        justifyContent: 'space-between',
        gap: 2,
        mb: 3,
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h4" component="h1" data-testid="user-name" sx={{ overflowWrap: 'anywhere' }}>
          {t('welcome', { name })}
        </Typography>
        {user ? (
          <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="user-username">
              {`@${user.username}`}
            </Typography>
            <Chip size="small" label={t(`common:roles.${roleName(user.role)}`)} data-testid="user-role" />
            <Chip
              size="small"
              variant="outlined"
              label={t('groupChip', { group: groupName(groups.data?.[user.group], user.group) })}
              data-testid="user-group"
            />
          </Stack>
        ) : (
          <Skeleton width={220} height={28} sx={{ mt: 1 }} />
        )}
      </Box>
      <Stack direction="row" spacing={1.5}>
        <Button variant="contained" startIcon={<AddCardOutlined />} component={RouterLink} to="/panel/topup">
          {t('actions.topUp')}
        </Button>
        <Button variant="outlined" startIcon={<KeyOutlined />} component={RouterLink} to="/panel/token">
          {t('actions.tokens')}
        </Button>
      </Stack>
    </Box>
  );
}

function UsageSection({ rows, user }: { rows: DashboardRow[]; user: UserView | undefined }) {
  const days = useMemo(() => dashboardDays(rows), [rows]);
  const daily = useMemo(() => usageByDay(rows, days), [rows, days]);
  const totals = useMemo(() => totalUsage(rows), [rows]);
  if (rows.length === 0) {
    // An administrator without usage is most likely setting up: the way to a first call.
    return user && user.role >= Role.admin ? <GettingStarted requests={user.request_count} /> : <EmptyUsage />;
  }
  return (
    <Stack spacing={2.5}>
      <UsageTrendCard days={daily} totals={totals} />
      <ModelUsageCard rows={rows} days={days} />
    </Stack>
  );
}

/** The signed-in user's balance, usage of the last eight days and rate limit. */
export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const self = useSelf();
  const usage = useDashboardUsage();
  const rate = useDashboardRate();
  const { UptimeEnabled: showServiceStatus } = useSiteInfo();
  const user = self.data;

  return (
    <Box>
      <Greeting user={user} />
      {self.isError && (
        <Alert severity="error" sx={{ mb: 2.5 }}>
          {describeError(self.error)}
        </Alert>
      )}
      <Grid container spacing={2.5} sx={{ mb: 2.5 }}>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard
            label={t('balance')}
            value={user ? <Quota value={user.quota} /> : null}
            icon={<AccountBalanceWalletOutlined />}
            testId="user-quota"
            caption={t('balanceHint')}
            loading={!user}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard
            label={t('usedQuota')}
            value={user ? <Quota value={user.used_quota} /> : null}
            icon={<DataUsageOutlined />}
            testId="user-used-quota"
            caption={t('usedQuotaHint')}
            loading={!user}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <StatCard
            label={t('requestCount')}
            value={user?.request_count.toLocaleString()}
            icon={<QueryStatsOutlined />}
            testId="user-request-count"
            caption={t('requestCountHint')}
            loading={!user}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
          <RateLimitCard rate={rate.data} loading={rate.isPending} />
        </Grid>
      </Grid>
      <BudgetWindowsCard />
      {showServiceStatus && (
        <Box sx={{ mb: 2.5 }}>
          <ServiceStatusCard />
        </Box>
      )}
      {usage.isPending ? (
        <Skeleton variant="rounded" height={420} />
      ) : usage.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void usage.refetch()}>
              {t('common:retry')}
            </Button>
          }
        >
          {t('usageError')}
        </Alert>
      ) : (
        <UsageSection rows={usage.data} user={user} />
      )}
    </Box>
  );
}
