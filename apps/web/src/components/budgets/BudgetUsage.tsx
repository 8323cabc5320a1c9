import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { BudgetWindowView } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { formatTime } from '../../lib/format.js';
import { type BudgetBar, barColor, resetTime, sortWindows, windowBars } from './budgetUsage.js';

function Bar({ bar, testId }: { bar: BudgetBar; testId: string }) {
  const { t } = useTranslation('budget');
  const format = useQuotaFormatter();
  const amount = (value: number) => (bar.measure === 'quota' ? format(value) : value.toLocaleString());
  return (
    <Box data-testid={testId} data-percent={Math.round(bar.percent)}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mb: 0.5 }}>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t(`usage.measures.${bar.measure}`)}
        </Typography>
        <Typography
          variant="caption"
          sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
          data-testid={`${testId}-text`}
        >
          {t('usage.of', { used: amount(bar.used), limit: amount(bar.limit) })}
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={bar.percent}
        color={barColor(bar.percent)}
        sx={{ height: 6, borderRadius: 3 }}
        aria-label={t('usage.barLabel', {
          measure: t(`usage.measures.${bar.measure}`),
          percent: Math.round(bar.percent),
        })}
      />
    </Box>
  );
}

interface WindowUsageProps {
  window: BudgetWindowView;
  testId: string;
  showScope: boolean;
  /** Under the title, above the bars (the group dialog's member counts). */
  children?: ReactNode;
  /** Whether the bars and the reset time are shown (a group window nobody used has neither). */
  showUse?: boolean;
}

/** One window: its title, when it resets, and a bar per measure it limits. */
export function WindowUsage({ window, testId, showScope, children, showUse = true }: WindowUsageProps) {
  const { t } = useTranslation('budget');
  const resets = resetTime(window);
  return (
    <Box
      data-testid={testId}
      sx={{ p: 1.5, borderRadius: '10px', border: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
    >
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap', rowGap: 0.5 }}>
        <Typography variant="subtitle2">{t(`usage.periods.${window.period}`)}</Typography>
        {showScope && <Chip size="small" variant="outlined" label={t(`usage.scopes.${window.scope}`)} />}
        <Box sx={{ flex: 1 }} />
        {showUse && (
          <Typography variant="caption" sx={{ color: 'text.secondary' }} data-testid={`${testId}-reset`}>
            {resets === null ? t('usage.opensWithNext') : t('usage.resetsAt', { time: formatTime(resets) })}
          </Typography>
        )}
      </Stack>
      {children}
      {showUse && (
        <Stack spacing={1}>
          {windowBars(window).map((bar) => (
            <Bar key={bar.measure} bar={bar} testId={`${testId}-${bar.measure}`} />
          ))}
        </Stack>
      )}
    </Box>
  );
}

/** Window cards side by side where they fit, one a row on a phone. */
export const windowGrid = {
  display: 'grid',
  gap: 1.5,
  gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(240px, 1fr))' },
} as const;

interface BudgetUsageProps {
  windows: readonly BudgetWindowView[];
  /** Prefix of the test ids: `<testId>-<scope>-<period>`, then `-quota`, `-requests`, `-tokens`. */
  testId: string;
  /** Whether each window says whose it is (a key's, the user's, the group's, a plan's). */
  showScope?: boolean;
}

/** The current use of budget windows: per window its allowances as bars, "x of y", and when it resets. */
export function BudgetUsage({ windows, testId, showScope = true }: BudgetUsageProps) {
  return (
    <Box sx={windowGrid} data-testid={testId}>
      {sortWindows(windows).map((window) => (
        <WindowUsage
          key={`${window.scope}-${window.period}`}
          window={window}
          showScope={showScope}
          testId={`${testId}-${window.scope}-${window.period}`}
        />
      ))}
    </Box>
  );
}
