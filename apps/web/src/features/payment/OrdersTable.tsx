import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { OrderView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { ActionsCell, ColumnHeads, type ListColumn, ListTable } from '../../components/ListTable.js';
import { Quota } from '../../components/Quota.js';
import { type CardFact, RowCard } from '../../components/RowCard.js';
import { Timestamp } from '../../components/Timestamp.js';
import { formatPaymentAmount } from '../../lib/format.js';
import { OrderStatusChip } from './OrderStatusChip.js';

type OrderSortField = 'id' | 'user_id' | 'status' | 'created_at';

const monospace = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

function Numbers({ order }: { order: OrderView }) {
  return (
    <Box>
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 600 }}>
        {formatPaymentAmount(order.order_amount, order.order_currency)}
      </Typography>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {formatPaymentAmount(order.amount, 'USD')}
      </Typography>
    </Box>
  );
}

function TradeNumbers({ order }: { order: OrderView }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography
        variant="body2"
        noWrap
        sx={{ fontFamily: monospace }}
        data-testid={`payment-order-trade-${order.trade_no}`}
      >
        {order.trade_no}
      </Typography>
      <Typography variant="caption" noWrap sx={{ display: 'block', color: 'text.secondary', fontFamily: monospace }}>
        {order.gateway_no || '—'}
      </Typography>
    </Box>
  );
}

function OrderCard({ order }: { order: OrderView }) {
  const { t } = useTranslation('payment');
  const facts: CardFact[] = [
    [t('orders.columns.paid'), <Numbers key="paid" order={order} />],
    [t('orders.columns.quota'), <Quota key="quota" value={order.quota} />],
    [t('orders.columns.fee'), formatPaymentAmount(order.fee, order.order_currency)],
    [t('orders.columns.discount'), formatPaymentAmount(order.discount, order.order_currency)],
    [t('orders.columns.user'), `#${order.user_id}`],
  ];
  return (
    <RowCard
      testId={`payment-order-${order.id}`}
      facts={facts}
      footerJustify="flex-end"
      header={
        <>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <TradeNumbers order={order} />
          </Box>
          <OrderStatusChip status={order.status} testId={`payment-order-status-${order.id}`} />
        </>
      }
      footer={
        <Typography variant="caption" sx={{ color: 'text.secondary', px: 1, py: 0.5 }}>
          <Timestamp value={order.created_at} />
        </Typography>
      }
    />
  );
}

interface OrdersTableProps {
  orders: OrderView[];
  loading: boolean;
  order: string;
  onSort(order: string): void;
  compact: boolean;
}

/** Every user's orders: trade numbers, money, quota credited and state. */
export function OrdersTable({ orders, loading, order, onSort, compact }: OrdersTableProps) {
  const { t } = useTranslation('payment');
  const columns: ListColumn<OrderSortField>[] = [
    { label: t('orders.columns.id'), field: 'id' },
    { label: t('orders.columns.tradeNo') },
    { label: t('orders.columns.user'), field: 'user_id' },
    { label: t('orders.columns.paid'), align: 'right' },
    { label: t('orders.columns.fee'), align: 'right' },
    { label: t('orders.columns.discount'), align: 'right' },
    { label: t('orders.columns.quota'), align: 'right' },
    { label: t('orders.columns.status'), field: 'status' },
  ];
  return (
    <ListTable
      testId="payment-order-list"
      loading={loading && orders.length === 0}
      compact={compact}
      cards={orders.map((row) => <OrderCard key={row.id} order={row} />)}
      cardHeight={200}
      minWidth={940}
      columns={columns.length + 1}
      actionsLabel={t('orders.columns.created')}
      head={<ColumnHeads columns={columns} order={order} onSort={onSort} testIdPrefix="payment-order-sort" />}
    >
      {orders.map((row) => (
        <TableRow key={row.id} hover data-testid={`payment-order-${row.id}`}>
          <TableCell sx={{ color: 'text.secondary' }}>{row.id}</TableCell>
          <TableCell sx={{ maxWidth: 260 }}>
            <TradeNumbers order={row} />
          </TableCell>
          <TableCell>{`#${row.user_id}`}</TableCell>
          <TableCell align="right">
            <Numbers order={row} />
          </TableCell>
          <TableCell align="right">{formatPaymentAmount(row.fee, row.order_currency)}</TableCell>
          <TableCell align="right">{formatPaymentAmount(row.discount, row.order_currency)}</TableCell>
          <TableCell align="right">
            <Quota value={row.quota} />
          </TableCell>
          <TableCell>
            <OrderStatusChip status={row.status} testId={`payment-order-status-${row.id}`} />
          </TableCell>
          <ActionsCell>
            <Timestamp value={row.created_at} />
          </ActionsCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
