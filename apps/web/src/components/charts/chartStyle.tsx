import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { alpha, useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { CartesianGrid, XAxis, YAxis } from 'recharts';

/**
 * The palette and axis styling of the console's charts (dashboard and analytics): colours per
 * theme, saturated enough on white and light enough on the dark paper; the grey one stands for
 * "all the others".
 */
const seriesColors = {
  light: ['#4f46e5', '#0d9488', '#d97706', '#db2777', '#0284c7', '#7c3aed'],
  dark: ['#8f8cf9', '#2dd4bf', '#fbbf24', '#f472b6', '#38bdf8', '#c4b5fd'],
} as const;
const otherColor = { light: '#94a3b8', dark: '#64748b' } as const;

export interface ChartStyle {
  series(index: number): string;
  other: string;
  grid: string;
  axis: string;
  cursor: string;
  tick: { fill: string; fontSize: number };
}

export function useChartStyle(): ChartStyle {
  const theme = useTheme();
  const mode = theme.palette.mode;
  return useMemo(() => {
    const colors = seriesColors[mode];
    return {
      series: (index: number) => colors[index % colors.length] ?? colors[0],
      other: otherColor[mode],
      grid: theme.palette.divider,
      axis: theme.palette.divider,
      cursor: alpha(theme.palette.text.primary, mode === 'light' ? 0.05 : 0.08),
      tick: { fill: theme.palette.text.secondary, fontSize: 12 },
    };
  }, [mode, theme.palette.divider, theme.palette.text.primary, theme.palette.text.secondary]);
}

export interface TooltipLine {
  key: string;
  color: string;
  name: string;
  value: string;
}

/** The tooltip box of every chart: HTML, themed like the cards. */
export function ChartTooltipBox({ title, lines }: { title: string; lines: TooltipLine[] }) {
  return (
    <Paper
      sx={{ px: 1.5, py: 1, border: 1, borderColor: 'divider', boxShadow: 4, minWidth: 160, pointerEvents: 'none' }}
    >
      <Typography variant="caption" sx={{ color: 'text.secondary', fontWeight: 600, display: 'block', mb: 0.5 }}>
        {title}
      </Typography>
      {lines.map((line) => (
        <Box key={line.key} sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.25 }}>
          <Box sx={{ width: 8, height: 8, borderRadius: '2px', bgcolor: line.color, flexShrink: 0 }} />
          <Typography variant="body2" sx={{ flex: 1, minWidth: 0 }} noWrap>
            {line.name}
          </Typography>
          <Typography variant="body2" sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums', pl: 1 }}>
            {line.value}
          </Typography>
        </Box>
      ))}
    </Paper>
  );
}

/** "05-14" from "2025-05-14": short enough for many ticks on a phone. */
export function shortDay(date: string | number | undefined): string {
  const text = String(date ?? '');
  return text.length === 10 ? text.slice(5) : text;
}

/**
 * Grid and axes of a per-day chart: days along the bottom, values up the side. A function rather
 * than a component, so the chart sees them as its own direct children. The value axis sizes
 * itself to its longest label, so "$0.000298" is never clipped.
 */
export function dayAxes(
  style: ChartStyle,
  formatTick: (value: number) => string,
  allowDecimals = false,
  { minTickGap = 8 }: { minTickGap?: number } = {},
) {
  return [
    <CartesianGrid key="grid" vertical={false} stroke={style.grid} strokeDasharray="3 3" />,
    <XAxis
      key="x"
      dataKey="date"
      tickFormatter={shortDay}
      tick={style.tick}
      axisLine={{ stroke: style.axis }}
      tickLine={false}
      interval="preserveStartEnd"
      minTickGap={minTickGap}
      tickMargin={8}
    />,
    <YAxis
      key="y"
      tick={style.tick}
      axisLine={false}
      tickLine={false}
      width="auto"
      allowDecimals={allowDecimals}
      tickFormatter={formatTick}
    />,
  ];
}
