import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import Box from '@mui/material/Box';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import Typography from '@mui/material/Typography';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { MetricText } from '../../components/charts/MetricToggle.js';

/** The usage figures' names in this screen's words, for the shared metric switch and charts. */
export function useMetricText(): MetricText {
  const { t } = useTranslation('analytics');
  return { label: t('metric.label'), nameOf: (name) => t(`metric.${name}`) };
}

/** Milliseconds as "850 ms" or "2.40 s", in the screen's language. */
export function useLatencyFormat(): (milliseconds: number) => string {
  const { t } = useTranslation('analytics');
  return (milliseconds) =>
    milliseconds < 1000
      ? t('latency.milliseconds', { value: Math.round(milliseconds) })
      : t('latency.seconds', { value: (milliseconds / 1000).toFixed(milliseconds < 10_000 ? 2 : 1) });
}

interface ChartEmptyProps {
  title: string;
  description: string;
  icon?: ComponentType<SvgIconProps>;
  testId?: string;
  height?: number;
}

/** What a chart card shows when the period has nothing to plot. */
export function ChartEmpty({
  title,
  description,
  icon: Icon = InsightsOutlined,
  testId,
  height = 220,
}: ChartEmptyProps) {
  return (
    <Box
      data-testid={testId}
      sx={{
        minHeight: height,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: 1,
        px: 2,
        borderRadius: 2,
        border: 1,
        borderStyle: 'dashed',
        borderColor: 'divider',
      }}
    >
      <Icon sx={{ fontSize: 36, color: 'text.disabled' }} />
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', maxWidth: 360 }}>
        {description}
      </Typography>
    </Box>
  );
}
