import ShoppingCartOutlined from '@mui/icons-material/ShoppingCartOutlined';
import Box from '@mui/material/Box';
import { shortenNumber } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, Tooltip, type TooltipContentProps } from 'recharts';
import { ChartCard, ChartFigure } from '../../components/charts/ChartCard.js';
import { ChartTooltipBox, dayAxes, useChartStyle } from '../../components/charts/chartStyle.js';
import { CHART_HEIGHT, chartMargin, FiguresRow } from './ActivityCards.js';
import { ChartEmpty } from './AnalyticsCard.js';
import type { DayTopUps } from './series.js';

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
  const total = days.reduce((sum, day) => sum + day.paid, 0);
  const busiest = days.reduce((best, day) => Math.max(best, day.paid), 0);
  const color = style.series(4);

  const renderTooltip = ({ active, payload, label }: TooltipContentProps) => {
    if (!active || !payload?.length) return null;
    const day = payload[0]?.payload as DayTopUps | undefined;
    return (
      <ChartTooltipBox
        title={String(label ?? '')}
        lines={[{ key: 'paid', color, name: t('orders.amount'), value: money(day?.paid ?? 0) }]}
      />
    );
  };

  return (
    <ChartCard title={t('orders.title')} subtitle={t('orders.subtitle')} testId="analytics-orders">
      <FiguresRow>
        <ChartFigure label={t('orders.total')} value={money(total)} testId="analytics-orders-total" />
        <ChartFigure label={t('orders.busiest')} value={money(busiest)} testId="analytics-orders-busiest" />
      </FiguresRow>
      {total === 0 ? (
        <ChartEmpty
          icon={ShoppingCartOutlined}
          title={t('empty.ordersTitle')}
          description={t('empty.orders')}
          height={CHART_HEIGHT}
          testId="analytics-orders-empty"
        />
      ) : (
        <Box role="img" aria-label={t('orders.chartLabel')} data-testid="analytics-orders-chart">
          <BarChart responsive data={days} style={{ width: '100%', height: CHART_HEIGHT }} margin={chartMargin}>
            {dayAxes(style, (value) => shortenNumber(value), true)}
            <Tooltip content={renderTooltip} cursor={{ fill: style.cursor }} />
            <Bar dataKey="paid" fill={color} maxBarSize={28} radius={[4, 4, 0, 0]} isAnimationActive={false} />
          </BarChart>
        </Box>
      )}
    </ChartCard>
  );
}
