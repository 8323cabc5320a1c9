import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { type LogStat, LogType } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Quota } from '../../components/Quota.js';

function Figure({ label, hint, value, testId }: { label: string; hint: string; value: ReactNode; testId: string }) {
  return (
    <Box sx={{ minWidth: 0, px: 2, py: 1.5 }}>
      <Typography variant="caption" sx={{ color: 'text.secondary', fontWeight: 500, display: 'block' }} noWrap>
        {label}
      </Typography>
      <Typography variant="h6" component="p" sx={{ fontWeight: 700, lineHeight: 1.4 }} data-testid={testId} noWrap>
        {value}
      </Typography>
      <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }} noWrap>
        {hint}
      </Typography>
    </Box>
  );
}

/**
 * The figures count usage only (the server's stat, as the reference's, sums consume logs), so a
 * filter on another type would not change them: then they say so instead of seeming to follow it.
 */
export function countsOnlyUsage(logType: number): boolean {
  return logType !== 0 && logType !== LogType.consume;
}

/** The consumption total of the current filters (spec: "total quota of the filter") and the last minute's rates. */
export function LogStats({ stat, loading, logType }: { stat: LogStat | undefined; loading: boolean; logType: number }) {
  const { t } = useTranslation('log');
  const value = (content: ReactNode) => (loading && !stat ? <Skeleton width={80} /> : content);
  return (
    <>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr 1fr', sm: '2fr 1fr 1fr' },
          '& > :first-of-type': { gridColumn: { xs: '1 / -1', sm: 'auto' } },
          borderBottom: 1,
          borderColor: 'divider',
          bgcolor: 'action.hover',
        }}
        data-testid="log-stats"
      >
        <Figure
          label={t('stats.quota')}
          hint={t('stats.quotaHint')}
          value={value(<Quota value={stat?.quota ?? 0} testId="log-stat-quota" />)}
          testId="log-stat-spent"
        />
        <Figure
          label={t('stats.rpm')}
          hint={t('stats.lastMinute')}
          value={value((stat?.rpm ?? 0).toLocaleString())}
          testId="log-stat-rpm"
        />
        <Figure
          label={t('stats.tpm')}
          hint={t('stats.lastMinute')}
          value={value((stat?.tpm ?? 0).toLocaleString())}
          testId="log-stat-tpm"
        />
      </Box>
      {countsOnlyUsage(logType) && (
        <Typography
          variant="caption"
          component="p"
          sx={{ px: 2, py: 0.75, color: 'text.secondary', borderBottom: 1, borderColor: 'divider' }}
          data-testid="log-stats-usage-only"
        >
          {t('stats.usageOnly')}
        </Typography>
      )}
    </>
  );
}
