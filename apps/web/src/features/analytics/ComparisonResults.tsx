import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { MultiUserModelUsage, MultiUserStatsRow } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Cell, Tooltip, type TooltipContentProps, XAxis, YAxis } from 'recharts';
import { ChartTooltipBox, useChartStyle } from '../../components/charts/chartStyle.js';
import { MetricToggle } from '../../components/charts/MetricToggle.js';
import { NumberCell } from '../../components/ListTable.js';
import { useMetricFormat } from '../../hooks/useMetricFormat.js';
import { useLatencyFormat, useMetricText } from './AnalyticsCard.js';
import type { UsageMetric } from './series.js';

/** Models a row names before "+N". */
const MODELS_SHOWN = 3;

function metricOf(row: MultiUserStatsRow, metric: UsageMetric): number {
  if (metric === 'quota') return row.quota;
  if (metric === 'requests') return row.request_count;
  return row.prompt_tokens + row.completion_tokens;
}

interface ComparisonResultsProps {
  rows: MultiUserStatsRow[];
  modelUsage: MultiUserModelUsage[];
}

/** One bar per compared user, then the figures and most used models of each. */
export function ComparisonResults({ rows, modelUsage }: ComparisonResultsProps) {
  const { t } = useTranslation('analytics');
  const [metric, setMetric] = useState<UsageMetric>('quota');
  const style = useChartStyle();
  const format = useMetricFormat();
  const formatLatency = useLatencyFormat();
  const metricText = useMetricText();
  const modelsOf = useMemo(() => {
    const byUser = new Map<string, MultiUserModelUsage[]>();
    for (const entry of modelUsage) byUser.set(entry.username, [...(byUser.get(entry.username) ?? []), entry]);
    return byUser;
  }, [modelUsage]);
  const data = rows.map((row) => ({ username: row.username, value: metricOf(row, metric) }));

  const renderTooltip = ({ active, payload, label }: TooltipContentProps) => {
    if (!active || !payload?.length) return null;
    const value = Number(payload[0]?.value ?? 0);
    const index = rows.findIndex((row) => row.username === label);
    return (
      <ChartTooltipBox
        title={String(label ?? '')}
        lines={[
          {
            key: 'value',
            color: style.series(Math.max(0, index)),
            name: t(`metric.${metric}`),
            value: format.full(metric, value),
          },
        ]}
      />
    );
  };

  return (
    <Stack spacing={2.5} data-testid="analytics-compare-results">
      <Box>
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
          <MetricToggle value={metric} onChange={setMetric} testId="analytics-compare-metric" text={metricText} />
        </Box>
        <Box role="img" aria-label={t('compare.chartLabel', { metric: t(`metric.${metric}`) })}>
          <BarChart
            responsive
            data={data}
            style={{ width: '100%', height: 240 }}
            margin={{ top: 8, right: 20, left: 0, bottom: 0 }}
          >
            <CartesianGrid vertical={false} stroke={style.grid} strokeDasharray="3 3" />
            <XAxis
              dataKey="username"
              tick={style.tick}
              axisLine={{ stroke: style.axis }}
              tickLine={false}
              interval={0}
              tickMargin={8}
            />
            <YAxis
              tick={style.tick}
              axisLine={false}
              tickLine={false}
              width="auto"
              allowDecimals={metric === 'quota'}
              tickFormatter={(value: number) => format.short(metric, value)}
            />
            <Tooltip content={renderTooltip} cursor={{ fill: style.cursor }} />
            <Bar dataKey="value" maxBarSize={56} radius={[4, 4, 0, 0]} isAnimationActive={false}>
              {data.map((entry, index) => (
                <Cell key={entry.username} fill={style.series(index)} />
              ))}
            </Bar>
          </BarChart>
        </Box>
      </Box>

      <TableContainer sx={{ mx: { xs: -2, sm: 0 }, width: { xs: 'calc(100% + 32px)', sm: '100%' } }}>
        <Table size="small" sx={{ minWidth: 720 }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('compare.columns.user')}</TableCell>
              <TableCell align="right">{t('compare.columns.requests')}</TableCell>
              <TableCell align="right">{t('compare.columns.quota')}</TableCell>
              <TableCell align="right">{t('compare.columns.promptTokens')}</TableCell>
              <TableCell align="right">{t('compare.columns.completionTokens')}</TableCell>
              <TableCell align="right">{t('compare.columns.latency')}</TableCell>
              <TableCell>{t('compare.columns.models')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row, index) => {
              const models = modelsOf.get(row.username) ?? [];
              return (
                <TableRow key={row.username} data-testid={`analytics-compare-row-${row.username}`}>
                  <TableCell>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                      <Box
                        sx={{ width: 10, height: 10, borderRadius: '3px', bgcolor: style.series(index), flexShrink: 0 }}
                      />
                      <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
                        {row.username}
                      </Typography>
                    </Box>
                  </TableCell>
                  <NumberCell testId="analytics-compare-requests">{row.request_count.toLocaleString()}</NumberCell>
                  <NumberCell testId="analytics-compare-quota">{format.full('quota', row.quota)}</NumberCell>
                  <NumberCell>{row.prompt_tokens.toLocaleString()}</NumberCell>
                  <NumberCell>{row.completion_tokens.toLocaleString()}</NumberCell>
                  <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                    {row.request_count > 0 ? formatLatency(row.request_time / row.request_count) : '—'}
                  </TableCell>
                  <TableCell>
                    {models.length === 0 ? (
                      <Typography variant="body2" sx={{ color: 'text.disabled' }}>
                        {t('compare.noModels')}
                      </Typography>
                    ) : (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                        {models.slice(0, MODELS_SHOWN).map((entry) => (
                          <Chip
                            key={entry.model_name}
                            size="small"
                            variant="outlined"
                            label={t('compare.modelChip', { model: entry.model_name, count: entry.request_count })}
                          />
                        ))}
                        {models.length > MODELS_SHOWN && (
                          <Chip size="small" label={t('compare.moreModels', { count: models.length - MODELS_SHOWN })} />
                        )}
                      </Box>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Stack>
  );
}
