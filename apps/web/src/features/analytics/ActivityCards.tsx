import CardGiftcardOutlined from '@mui/icons-material/CardGiftcardOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import Box from '@mui/material/Box';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import { shortenNumber } from '@one-hub/contracts';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, Tooltip, type TooltipContentProps } from 'recharts';
import { ChartCard, ChartFigure } from '../../components/charts/ChartCard.js';
import { ChartTooltipBox, dayAxes, type TooltipLine, useChartStyle } from '../../components/charts/chartStyle.js';
import { useMetricFormat } from '../../hooks/useMetricFormat.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { ChartEmpty } from './AnalyticsCard.js';
import type { DayRegistrations, DayTopUps } from './series.js';

const CHART_HEIGHT = 220;
const chartMargin = { top: 8, right: 20, left: 0, bottom: 0 };

interface Figure {
  label: string;
  value: string;
  testId: string;
}

interface DayBarsProps<Day extends { date: string }> {
  /** The translation keys' prefix (`newUsers` → `newUsers.title`, `.subtitle`, `.chartLabel`) and test ids' stem. */
  name: string;
  testId: string;
  /** The two headline figures above the chart. */
  figures: [Figure, Figure];
  days: Day[];
  /** The bars, drawn in order; the first one's total decides whether the chart is empty. */
  bars: Array<{ key: keyof Day & string; color: string }>;
  total: number;
  empty: { icon: ComponentType<SvgIconProps>; title: string; description: string };
  formatTick: (value: number) => string;
  allowDecimals?: boolean;
  tooltip: (day: Day) => TooltipLine[];
}

/** A day-by-day bar chart under two headline figures, or an empty state when the period has nothing. */
function DayBarsCard<Day extends { date: string }>(props: DayBarsProps<Day>) {
  const { t } = useTranslation('analytics');
  const style = useChartStyle();
  const renderTooltip = ({ active, payload, label }: TooltipContentProps) => {
    const day = payload?.[0]?.payload as Day | undefined;
    if (!active || !day) return null;
    return <ChartTooltipBox title={String(label ?? '')} lines={props.tooltip(day)} />;
  };
  return (
    <ChartCard title={t(`${props.name}.title`)} subtitle={t(`${props.name}.subtitle`)} testId={props.testId}>
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
        {props.figures.map((figure) => (
          <ChartFigure key={figure.testId} {...figure} />
        ))}
      </Box>
      {props.total === 0 ? (
        <ChartEmpty {...props.empty} height={CHART_HEIGHT} testId={`${props.testId}-empty`} />
      ) : (
        <Box role="img" aria-label={t(`${props.name}.chartLabel`)} data-testid={`${props.testId}-chart`}>
          <BarChart responsive data={props.days} style={{ width: '100%', height: CHART_HEIGHT }} margin={chartMargin}>
            {dayAxes(style, props.formatTick, props.allowDecimals)}
            <Tooltip content={renderTooltip} cursor={{ fill: style.cursor }} />
            {props.bars.map((bar) => (
              <Bar
                key={bar.key}
                dataKey={bar.key as string}
                fill={bar.color}
                maxBarSize={28}
                radius={[4, 4, 0, 0]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </Box>
      )}
    </ChartCard>
  );
}

const sum = <Day,>(days: Day[], value: (day: Day) => number) => days.reduce((total, day) => total + value(day), 0);

/** Registrations per day, the invited ones drawn inside them. */
export function NewUsersCard({ days }: { days: DayRegistrations[] }) {
  const { t } = useTranslation('analytics');
  const style = useChartStyle();
  const total = sum(days, (day) => day.users);
  const colors = { users: style.series(1), invited: style.series(2) };
  return (
    <DayBarsCard
      name="newUsers"
      testId="analytics-new-users"
      figures={[
        { label: t('newUsers.users'), value: total.toLocaleString(), testId: 'analytics-new-users-total' },
        {
          label: t('newUsers.invited'),
          value: sum(days, (day) => day.invited).toLocaleString(),
          testId: 'analytics-new-users-invited',
        },
      ]}
      days={days}
      bars={[
        { key: 'users', color: colors.users },
        { key: 'invited', color: colors.invited },
      ]}
      total={total}
      empty={{ icon: PersonAddAltOutlined, title: t('empty.newUsersTitle'), description: t('empty.newUsers') }}
      formatTick={(value) => shortenNumber(value)}
      tooltip={(day) => [
        { key: 'users', color: colors.users, name: t('newUsers.users'), value: String(day.users) },
        { key: 'invited', color: colors.invited, name: t('newUsers.invited'), value: String(day.invited) },
      ]}
    />
  );
}

/** Quota redeemed with codes per day (money paid online has its own card: OrdersCard). */
export function TopUpsCard({ days }: { days: DayTopUps[] }) {
  const { t } = useTranslation('analytics');
  const style = useChartStyle();
  const formatQuota = useQuotaFormatter();
  const format = useMetricFormat();
  const redeemed = sum(days, (day) => day.redeemed);
  const color = style.series(3);
  return (
    <DayBarsCard
      name="topUps"
      testId="analytics-topups"
      figures={[
        { label: t('topUps.redeemed'), value: formatQuota(redeemed), testId: 'analytics-topups-redeemed' },
        {
          label: t('topUps.redeemers'),
          value: sum(days, (day) => day.redeemers).toLocaleString(),
          testId: 'analytics-topups-redeemers',
        },
      ]}
      days={days}
      bars={[{ key: 'redeemed', color }]}
      total={redeemed}
      empty={{ icon: CardGiftcardOutlined, title: t('empty.topUpsTitle'), description: t('empty.topUps') }}
      formatTick={(value) => format.short('quota', value)}
      allowDecimals
      tooltip={(day) => [
        { key: 'redeemed', color, name: t('topUps.redeemed'), value: formatQuota(day.redeemed) },
        { key: 'redeemers', color: 'transparent', name: t('topUps.redeemers'), value: String(day.redeemers) },
      ]}
    />
  );
}

/** Two decimals, as the gateways charge; the period mixes currencies, so no sign is shown. */
const money = (value: number) =>
  value.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Money paid through online orders per day (`order_statistics` of the period answer). The server
 * sums the amounts charged, whatever the gateway's currency, as the reference does.
 */
export function OrdersCard({ days }: { days: DayTopUps[] }) {
  const { t } = useTranslation('analytics');
  const style = useChartStyle();
  const total = sum(days, (day) => day.paid);
  const busiest = days.reduce((best, day) => Math.max(best, day.paid), 0);
  const color = style.series(4);
  return (
    <DayBarsCard
      name="orders"
      testId="analytics-orders"
      figures={[
        { label: t('orders.total'), value: money(total), testId: 'analytics-orders-total' },
        { label: t('orders.busiest'), value: money(busiest), testId: 'analytics-orders-busiest' },
      ]}
      days={days}
      bars={[{ key: 'paid', color }]}
      total={total}
      empty={{ icon: ShoppingCartOutlined, title: t('empty.ordersTitle'), description: t('empty.orders') }}
      formatTick={(value) => shortenNumber(value)}
      allowDecimals
      tooltip={(day) => [{ key: 'paid', color, name: t('orders.amount'), value: money(day.paid) }]}
    />
  );
}
