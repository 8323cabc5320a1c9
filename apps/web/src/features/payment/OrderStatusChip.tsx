import Chip from '@mui/material/Chip';
import { alpha } from '@mui/material/styles';
import type { OrderStatus } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';

const colors = { pending: 'warning', success: 'success', failed: 'error', closed: 'secondary' } as const;

/** An order's state; readable in both themes (light text on dark, dark text on light). */
export function OrderStatusChip({ status, testId }: { status: OrderStatus; testId?: string }) {
  const { t } = useTranslation('payment');
  const color = colors[status] ?? 'secondary';
  return (
    <Chip
      size="small"
      label={t(`status.${status}`)}
      data-testid={testId}
      data-state={status}
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
