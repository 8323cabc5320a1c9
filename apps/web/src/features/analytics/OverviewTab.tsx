import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../lib/notify.js';
import { NewUsersCard, OrdersCard, TopUpsCard } from './ActivityCards.js';
import { useAnalyticsPeriod } from './analytics.api.js';
import { BreakdownCard } from './BreakdownCard.js';

import { type DayRange, rangeDays } from './period.js';
import { type GroupType, periodDates, registrationsByDay, topUpsByDay, totalUsage, usageByDay } from './series.js';
import { UsageTrendCard } from './UsageTrendCard.js';

/**
 * The period's charts. The trend, registrations and top-ups come from the per-model answer; the
 * breakdown asks again only when another grouping is chosen (the per-model one is shared).
 */
export function OverviewTab({ range }: { range: DayRange }) {
  const { t } = useTranslation('analytics');
  const [groupType, setGroupType] = useState<GroupType>('model');
  const base = useAnalyticsPeriod(range, 'model');
  const grouped = useAnalyticsPeriod(range, groupType);

  const data = base.data;
  const days = useMemo(() => rangeDays(range, periodDates(data)), [range, data]);
  const usageRows = data?.channel_statistics ?? [];
  const daily = useMemo(() => usageByDay(usageRows, days), [usageRows, days]);
  const totals = useMemo(() => totalUsage(usageRows), [usageRows]);
  const registrations = useMemo(() => registrationsByDay(data?.user_statistics ?? [], days), [data, days]);
  const topUps = useMemo(
    () =>
      topUpsByDay(
        data ?? { user_statistics: [], channel_statistics: [], redemption_statistics: [], order_statistics: [] },
        days,
      ),
    [data, days],
  );

  if (base.isError && !data) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void base.refetch()}>
            {t('common:retry')}
          </Button>
        }
      >
        {t('periodError', { message: describeError(base.error) })}
      </Alert>
    );
  }
  if (!data) {
    return (
      <Stack spacing={2.5} data-testid="analytics-overview-loading">
        <Skeleton variant="rounded" height={360} />
        <Skeleton variant="rounded" height={380} />
      </Stack>
    );
  }

  return (
    <Stack spacing={2.5} data-testid="analytics-overview">
      <UsageTrendCard days={daily} totals={totals} />
      <BreakdownCard
        rows={grouped.data?.channel_statistics ?? []}
        days={days}
        groupType={groupType}
        onGroupType={setGroupType}
        switching={grouped.isPlaceholderData || grouped.isPending}
      />
      <Grid container spacing={2.5}>
        <Grid size={{ xs: 12, md: 6 }}>
          <NewUsersCard days={registrations} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <TopUpsCard days={topUps} />
        </Grid>
      </Grid>
      <OrdersCard days={topUps} />
    </Stack>
  );
}
