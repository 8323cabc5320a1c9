import type { OrderStatus } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { StateChip } from '../../components/StateChip.js';

const colors = { pending: 'warning', success: 'success', failed: 'error', closed: 'secondary' } as const;

/** An order's state; readable in both themes (light text on dark, dark text on light). */
export function OrderStatusChip({ status, testId }: { status: OrderStatus; testId?: string }) {
  const { t } = useTranslation('payment');
  const color = colors[status] ?? 'secondary';
  return <StateChip label={t(`status.${status}`)} state={status} color={color} testId={testId} />;
}
