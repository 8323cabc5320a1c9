import { NEVER_EXPIRES, TokenStatus, type TokenView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { StateChip } from '../../components/StateChip.js';

export type TokenState = 'enabled' | 'disabled' | 'expired' | 'exhausted';

/**
 * What a key is in practice. The stored status can still read "enabled" after the expiry time
 * has passed or the quota has run out (the relay marks it only when the key is next used), so
 * those two are judged from the values as well.
 */
export function tokenState(token: TokenView, nowSeconds: number): TokenState {
  if (token.status === TokenStatus.disabled) return 'disabled';
  const expired = token.expired_time !== NEVER_EXPIRES && token.expired_time !== 0 && token.expired_time <= nowSeconds;
  if (token.status === TokenStatus.expired || expired) return 'expired';
  if (token.status === TokenStatus.exhausted || (!token.unlimited_quota && token.remain_quota <= 0)) {
    return 'exhausted';
  }
  return 'enabled';
}

const colors = { enabled: 'success', disabled: 'secondary', expired: 'warning', exhausted: 'error' } as const;

export function TokenStatusChip({ state, testId }: { state: TokenState; testId?: string }) {
  const { t } = useTranslation('token');
  const color = colors[state];
  return <StateChip label={t(`status.${state}`)} state={state} color={color} testId={testId} />;
}
