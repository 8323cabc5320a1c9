import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ORDER_STATUSES, type OrderStatus } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { ListPanel } from '../../components/ListPanel.js';
import { ListNoRows } from '../../components/ListStates.js';
import { RefreshButton } from '../../components/RefreshButton.js';
import { SearchField } from '../../components/SearchField.js';
import { useListPanel } from '../../components/useListPage.js';
import { PAGE_SIZES } from '../../hooks/listParams.js';
import { FilterSelect, ListLoadFailed } from './ListParts.js';
import { OrdersTable } from './OrdersTable.js';
import { usePaymentOrders } from './payment.api.js';
import { dateInputToSeconds, secondsToDateInput } from './paymentDates.js';
import { useOrderListParams } from './paymentListParams.js';

/** The order list with its filters; a trade number pasted by a user finds their order. */
export function OrdersTab() {
  const { t } = useTranslation('payment');
  const listParams = useOrderListParams();
  const [params, update] = listParams;
  const orders = usePaymentOrders(params);
  const panel = useListPanel('payment-order', listParams, orders, 'sm');
  const { compact } = panel;
  const filtered = Boolean(
    params.trade_no || params.gateway_no || params.user_id || params.status || params.start_timestamp,
  );
  const clear = () =>
    update({ trade_no: '', gateway_no: '', user_id: 0, status: '', start_timestamp: 0, end_timestamp: 0 });

  const textFilters = [
    {
      key: 'tradeNo',
      value: params.trade_no,
      onSearch: (trade_no: string) => update({ trade_no }),
      sx: { minWidth: 200, flex: 1 },
    },
    {
      key: 'gatewayNo',
      value: params.gateway_no,
      onSearch: (gateway_no: string) => update({ gateway_no }),
      sx: { minWidth: 180, flex: 1 },
    },
    {
      key: 'userId',
      value: params.user_id ? String(params.user_id) : '',
      onSearch: (text: string) => update({ user_id: /^\d+$/.test(text) ? Number(text) : 0 }),
      sx: { width: 130 },
    },
  ];

  const toolbar = (
    <Stack direction="row" sx={{ p: 2, gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      {textFilters.map((filter) => (
        <SearchField
          key={filter.key}
          value={filter.value}
          onSearch={filter.onSearch}
          placeholder={t(`orders.filters.${filter.key}`)}
          label={t(`orders.filters.${filter.key}`)}
          testId={`payment-order-${filter.key}-filter`}
          sx={filter.sx}
        />
      ))}
      <FilterSelect
        label={t('orders.filters.status')}
        value={params.status}
        options={ORDER_STATUSES}
        labelOf={(status) => t(`status.${status}`)}
        anyLabel={t('orders.filters.anyStatus')}
        onChange={(status: OrderStatus | '') => update({ status })}
        testId="payment-order-status-filter"
        width={140}
      />
      <TextField
        type="date"
        size="small"
        label={t('orders.filters.from')}
        value={secondsToDateInput(params.start_timestamp)}
        onChange={(event) => update({ start_timestamp: dateInputToSeconds(event.target.value, 'start') })}
        fullWidth={false}
        sx={{ width: 170 }}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'payment-order-from' } }}
      />
      <TextField
        type="date"
        size="small"
        label={t('orders.filters.to')}
        value={secondsToDateInput(params.end_timestamp)}
        onChange={(event) => update({ end_timestamp: dateInputToSeconds(event.target.value, 'end') })}
        fullWidth={false}
        sx={{ width: 170 }}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'payment-order-to' } }}
      />
      <Box sx={{ flex: '0 0 auto', ml: 'auto' }}>
        <RefreshButton label={t('refresh')} onClick={() => void orders.refetch()} testId="payment-order-refresh" />
      </Box>
    </Stack>
  );

  return (
    <ListPanel
      {...panel}
      sizes={PAGE_SIZES}
      toolbar={toolbar}
      error={
        <ListLoadFailed title={t('orders.error')} onRetry={() => void orders.refetch()} testId="payment-order-error" />
      }
      empty={
        <ListNoRows
          icon={ReceiptLongOutlined}
          testId="payment-order-empty"
          filtered={filtered}
          title={t('orders.empty.title')}
          description={t('orders.empty.description')}
          noMatchTitle={t('orders.empty.noMatchTitle')}
          noMatchDescription={t('orders.empty.noMatch')}
          clearLabel={t('clearFilters')}
          onClear={clear}
          clearTestId="payment-order-clear"
        />
      }
    >
      <OrdersTable
        orders={orders.data?.data ?? []}
        loading={orders.isLoading}
        order={params.order}
        onSort={(order) => update({ order })}
        compact={compact}
      />
    </ListPanel>
  );
}
