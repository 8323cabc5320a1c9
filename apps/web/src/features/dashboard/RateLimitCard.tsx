import SpeedOutlined from '@mui/icons-material/SpeedOutlined';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { DashboardRate } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { StatCardFrame, StatIcon } from '../../components/cards/StatCard.js';

const RING_SIZE = 64;

/** Above these shares of the limit the ring turns amber, then red. */
const WARNING_PERCENT = 70;
const DANGER_PERCENT = 90;

function ringColor(percent: number): 'primary' | 'warning' | 'error' {
  if (percent >= DANGER_PERCENT) return 'error';
  if (percent >= WARNING_PERCENT) return 'warning';
  return 'primary';
}

function Ring({ percent, label }: { percent: number; label: string }) {
  const clamped = Math.min(100, Math.max(0, percent));
  return (
    <Box sx={{ position: 'relative', width: RING_SIZE, height: RING_SIZE, flexShrink: 0 }}>
      <CircularProgress
        variant="determinate"
        value={100}
        size={RING_SIZE}
        thickness={5}
        sx={{ color: 'action.hover', position: 'absolute', inset: 0 }}
        aria-hidden
      />
      <CircularProgress
        variant="determinate"
        value={clamped}
        size={RING_SIZE}
        thickness={5}
        color={ringColor(clamped)}
        sx={{ position: 'absolute', inset: 0, '& circle': { strokeLinecap: 'round' } }}
        aria-label={label}
      />
      <Box sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}>
        <Typography variant="caption" sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
          {`${Math.round(clamped)}%`}
        </Typography>
      </Box>
    </Box>
  );
}

/** The ring shows the fuller of the two limits: requests and tokens per minute (0 = no limit). */
export function ratePercent(rate: DashboardRate): number {
  return Math.max(rate.maxRPM > 0 ? rate.usageRpmRate : 0, rate.maxTPM > 0 ? rate.usageTpmRate : 0);
}

/**
 * The group's per-minute request and token limits and how much of the current minute is used
 * (0 = unlimited).
 */
export function RateLimitCard({ rate, loading }: { rate: DashboardRate | undefined; loading: boolean }) {
  const { t } = useTranslation('dashboard');
  const unlimited = rate !== undefined && rate.maxRPM <= 0 && rate.maxTPM <= 0;
  const percent = rate ? ratePercent(rate) : 0;
  const tokensLimited = rate !== undefined && rate.maxTPM > 0;

  return (
    <StatCardFrame
      label={t('rate.title')}
      aside={
        unlimited ? (
          <StatIcon>
            <SpeedOutlined />
          </StatIcon>
        ) : (
          <Ring percent={percent} label={t('rate.ringLabel', { percent })} />
        )
      }
      testId="dashboard-rate"
    >
      {loading || !rate ? (
        <Skeleton width={96} height={32} />
      ) : unlimited ? (
        <Typography
          variant="h6"
          component="p"
          sx={{ fontWeight: 700, mt: 0.25 }}
          data-testid="dashboard-rate-unlimited"
        >
          {t('rate.unlimited')}
        </Typography>
      ) : (
        rate.maxRPM > 0 && (
          <Typography
            variant="h6"
            component="p"
            sx={{ fontWeight: 700, mt: 0.25, fontVariantNumeric: 'tabular-nums' }}
            noWrap
          >
            <span data-testid="dashboard-rate-rpm">{rate.rpm.toLocaleString()}</span>
            <Box component="span" sx={{ color: 'text.secondary', fontWeight: 500, fontSize: '0.875rem' }}>
              {' / '}
              <span data-testid="dashboard-rate-max">{rate.maxRPM.toLocaleString()}</span>
            </Box>
          </Typography>
        )
      )}
      {!loading && rate && tokensLimited && (
        <Typography
          variant="caption"
          component="p"
          sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums', lineHeight: 1.4 }}
          data-testid="dashboard-rate-tpm"
        >
          {t('rate.tpm', { tpm: rate.tpm.toLocaleString(), max: rate.maxTPM.toLocaleString() })}
        </Typography>
      )}
      <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block', lineHeight: 1.4 }} component="p">
        {unlimited ? t('rate.unlimitedHint') : tokensLimited ? t('rate.tpmHint') : t('rate.hint')}
      </Typography>
    </StatCardFrame>
  );
}
