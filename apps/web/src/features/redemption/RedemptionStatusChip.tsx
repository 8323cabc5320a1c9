import Chip from '@mui/material/Chip';
import { alpha } from '@mui/material/styles';
import { RedemptionStatus } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';

export type RedemptionState = 'unredeemed' | 'redeemed' | 'disabled';

/** The three states of spec §3: a code waiting to be used, a spent one, and one switched off. */
export function redemptionState(status: number): RedemptionState {
  if (status === RedemptionStatus.redeemed) return 'redeemed';
  if (status === RedemptionStatus.disabled) return 'disabled';
  return 'unredeemed';
}

const colors = { unredeemed: 'success', redeemed: 'info', disabled: 'secondary' } as const;

export function RedemptionStatusChip({ status, testId }: { status: number; testId?: string }) {
  const { t } = useTranslation('redemption');
  const state = redemptionState(status);
  const color = colors[state];
  return (
    <Chip
      size="small"
      label={t(`status.${state}`)}
      data-testid={testId}
      data-state={state}
      sx={(theme) => ({
        height: 24,
        fontWeight: 600,
        color: theme.palette.mode === 'dark' ? theme.palette[color].light : theme.palette[color].dark,
        bgcolor: alpha(theme.palette[color].main, theme.palette.mode === 'dark' ? 0.18 : 0.1),
        border: `1px solid ${alpha(theme.palette[color].main, 0.28)}`,
      })}
    />
  );
}
