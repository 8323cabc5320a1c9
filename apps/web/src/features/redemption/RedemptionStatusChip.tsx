import { RedemptionStatus } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { StateChip } from '../../components/StateChip.js';

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
  return <StateChip label={t(`status.${state}`)} state={state} color={color} testId={testId} />;
}
