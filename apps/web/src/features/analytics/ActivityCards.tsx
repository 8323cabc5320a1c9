import CardGiftcardOutlined from '@mui/icons-material/CardGiftcardOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import Box from '@mui/material/Box';
import { shortenNumber } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, Tooltip, type TooltipContentProps } from 'recharts';
import { ChartCard, ChartFigure } from '../../components/charts/ChartCard.js';
import { ChartTooltipBox, dayAxes, useChartStyle } from '../../components/charts/chartStyle.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { ChartEmpty, useMetricFormat } from './AnalyticsCard.js';
import type { DayRegistrations, DayTopUps } from './series.js';

export const CHART_HEIGHT = 220;
export const chartMargin = { top: 8, right: 20, left: 0, bottom: 0 };

/** The two headline figures above a small chart. */
export function FiguresRow({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
        gap: 2,
        mb: 2,
        pb: 2,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {children}
    </Box>
  );
}

/** Registrations per day, the invited ones drawn inside them. */
export function NewUsersCard({ days }: { days: DayRegistrations[] }) {
  const { t } = useTranslation('analytics');
  const style = useChartStyle();
  const total = days.reduce((sum, day) => sum + day.users, 0);
  const invited = days.reduce((sum, day) => sum + day.invited, 0);
  const colors = { users: style.series(1), invited: style.series(2) };

  const renderTooltip = ({ active, payload, label }: TooltipContentProps) => {
    if (!active || !payload?.length) return null;
    const day = payload[0]?.payload as DayRegistrations | undefined;
    return (
      <ChartTooltipBox
        title={String(label ?? '')}
        lines={[
          { key: 'users', color: colors.users, name: t('newUsers.users'), value: String(day?.users ?? 0) },
          { key: 'invited', color: colors.invited, name: t('newUsers.invited'), value: String(day?.invited ?? 0) },
        ]}
      />
    );
  };

  return (
    <ChartCard title={t('newUsers.title')} subtitle={t('newUsers.subtitle')} testId="analytics-new-users">
      <FiguresRow>
        <ChartFigure label={t('newUsers.users')} value={total.toLocaleString()} testId="analytics-new-users-total" />
        <ChartFigure
          label={t('newUsers.invited')}
          value={invited.toLocaleString()}
          testId="analytics-new-users-invited"
        />
      </FiguresRow>
      {total === 0 ? (
        <ChartEmpty
          icon={PersonAddAltOutlined}
          title={t('empty.newUsersTitle')}
          description={t('empty.newUsers')}
          height={CHART_HEIGHT}
          testId="analytics-new-users-empty"
        />
      ) : (
        <Box role="img" aria-label={t('newUsers.chartLabel')} data-testid="analytics-new-users-chart">
          <BarChart responsive data={days} style={{ width: '100%', height: CHART_HEIGHT }} margin={chartMargin}>
            {dayAxes(style, (value) => shortenNumber(value))}
            <Tooltip content={renderTooltip} cursor={{ fill: style.cursor }} />
            <Bar dataKey="users" fill={colors.users} maxBarSize={28} radius={[4, 4, 0, 0]} isAnimationActive={false} />
            <Bar
              dataKey="invited"
              fill={colors.invited}
              maxBarSize={28}
              radius={[4, 4, 0, 0]}
              isAnimationActive={false}
            />
          </BarChart>
        </Box>
      )}
    </ChartCard>
  );
}

/** Quota redeemed with codes per day (money paid online has its own card: OrdersCard). */
export function TopUpsCard({ days }: { days: DayTopUps[] }) {
  const { t } = useTranslation('analytics');
  const style = useChartStyle();
  const formatQuota = useQuotaFormatter();
  const format = useMetricFormat();
  const redeemed = days.reduce((sum, day) => sum + day.redeemed, 0);
  const redeemers = days.reduce((sum, day) => sum + day.redeemers, 0);
  const colors = { redeemed: style.series(3) };

  const renderTooltip = ({ active, payload, label }: TooltipContentProps) => {
    if (!active || !payload?.length) return null;
    const day = payload[0]?.payload as DayTopUps | undefined;
    const lines = [
      { key: 'redeemed', color: colors.redeemed, name: t('topUps.redeemed'), value: formatQuota(day?.redeemed ?? 0) },
      { key: 'redeemers', color: 'transparent', name: t('topUps.redeemers'), value: String(day?.redeemers ?? 0) },
    ];
    return <ChartTooltipBox title={String(label ?? '')} lines={lines} />;
  };

  return (
    <ChartCard title={t('topUps.title')} subtitle={t('topUps.subtitle')} testId="analytics-topups">
      <FiguresRow>
        <ChartFigure label={t('topUps.redeemed')} value={formatQuota(redeemed)} testId="analytics-topups-redeemed" />
        <ChartFigure
          label={t('topUps.redeemers')}
          value={redeemers.toLocaleString()}
          testId="analytics-topups-redeemers"
        />
      </FiguresRow>
      {redeemed === 0 ? (
        <ChartEmpty
          icon={CardGiftcardOutlined}
          title={t('empty.topUpsTitle')}
          description={t('empty.topUps')}
          height={CHART_HEIGHT}
          testId="analytics-topups-empty"
        />
      ) : (
        <Box role="img" aria-label={t('topUps.chartLabel')} data-testid="analytics-topups-chart">
          <BarChart responsive data={days} style={{ width: '100%', height: CHART_HEIGHT }} margin={chartMargin}>
            {dayAxes(style, (value) => format.short('quota', value), true)}
            <Tooltip content={renderTooltip} cursor={{ fill: style.cursor }} />
            <Bar
              dataKey="redeemed"
              fill={colors.redeemed}
              maxBarSize={28}
              radius={[4, 4, 0, 0]}
              isAnimationActive={false}
            />
          </BarChart>
        </Box>
      )}
    </ChartCard>
  );
}
