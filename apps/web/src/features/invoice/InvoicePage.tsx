import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { InvoiceMonth } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPage } from '../../components/ListPage.js';
import { ListLoadError } from '../../components/ListStates.js';
import { ActionsCell, ColumnHeads, type ListColumn, ListTable } from '../../components/ListTable.js';
import { Quota } from '../../components/Quota.js';
import { RefreshButton } from '../../components/RefreshButton.js';
import { RowCard } from '../../components/RowCard.js';
import { useListPanel } from '../../components/useListPage.js';
import { useInvoiceListParams, useInvoiceMonths } from './invoice.api.js';
import { INVOICE_PAGE_SIZES, monthLabel, seconds } from './invoiceParams.js';

type InvoiceField = 'date' | 'request_count' | 'quota' | 'prompt_tokens' | 'completion_tokens' | 'request_time';

function DetailButton({ month }: { month: InvoiceMonth }) {
  const { t } = useTranslation('invoice');
  return (
    <Button
      size="small"
      component={RouterLink}
      to={`/panel/invoice/detail/${month.date}`}
      data-testid={`invoice-detail-${month.date}`}
    >
      {t('details')}
    </Button>
  );
}

/** Monthly invoices (UserInvoiceMonth): one row a month, built once the month is over. */
export function InvoicePage() {
  const { t, i18n } = useTranslation('invoice');
  const listParams = useInvoiceListParams();
  const months = useInvoiceMonths(listParams[0]);
  const panel = useListPanel('invoice', listParams, months);
  const { params, onChange: update, compact } = panel;
  const rows = months.data?.data ?? [];
  const columns: ListColumn<InvoiceField>[] = [
    { label: t('columns.month'), field: 'date' },
    { label: t('columns.requests'), field: 'request_count', align: 'right' },
    { label: t('columns.quota'), field: 'quota', align: 'right' },
    { label: t('columns.promptTokens'), field: 'prompt_tokens', align: 'right' },
    { label: t('columns.completionTokens'), field: 'completion_tokens', align: 'right' },
    { label: t('columns.time'), field: 'request_time', align: 'right' },
  ];

  return (
    <ListPage
      title={t('title')}
      subtitle={t('subtitle')}
      {...panel}
      sizes={INVOICE_PAGE_SIZES}
      toolbar={
        <Stack direction="row" sx={{ p: 2, alignItems: 'center' }}>
          <Typography variant="body2" sx={{ flex: 1, color: 'text.secondary' }}>
            {t('hint')}
          </Typography>
          <RefreshButton label={t('refresh')} onClick={() => void months.refetch()} testId="invoice-refresh" />
        </Stack>
      }
      error={<ListLoadError error={months.error} onRetry={() => void months.refetch()} testId="invoice-error" />}
      empty={
        <ListEmptyState
          icon={ReceiptLongOutlined}
          title={t('empty.title')}
          description={t('empty.description')}
          testId="invoice-empty"
        />
      }
    >
      <ListTable
        testId="invoice-list"
        loading={months.isLoading}
        compact={compact}
        cardHeight={150}
        minWidth={820}
        columns={columns.length + 1}
        actionsLabel={t('columns.actions')}
        head={
          <ColumnHeads
            columns={columns}
            order={params.order}
            onSort={(order) => update({ order })}
            testIdPrefix="invoice-sort"
          />
        }
        cards={rows.map((month) => (
          <RowCard
            key={month.date}
            testId={`invoice-row-${month.date}`}
            header={
              <Typography variant="body2" sx={{ flex: 1, fontWeight: 600 }}>
                {monthLabel(month.date, i18n.language)}
              </Typography>
            }
            facts={[
              [t('columns.requests'), month.request_count.toLocaleString()],
              [t('columns.quota'), <Quota key="quota" value={month.quota} />],
              [t('columns.tokens'), (month.prompt_tokens + month.completion_tokens).toLocaleString()],
            ]}
            footer={<DetailButton month={month} />}
          />
        ))}
      >
        {rows.map((month) => (
          <TableRow key={month.date} data-testid={`invoice-row-${month.date}`} hover>
            <TableCell sx={{ fontWeight: 600 }}>{monthLabel(month.date, i18n.language)}</TableCell>
            <TableCell align="right">{month.request_count.toLocaleString()}</TableCell>
            <TableCell align="right" data-testid={`invoice-quota-${month.date}`}>
              <Quota value={month.quota} />
            </TableCell>
            <TableCell align="right">{month.prompt_tokens.toLocaleString()}</TableCell>
            <TableCell align="right">{month.completion_tokens.toLocaleString()}</TableCell>
            <TableCell align="right">{seconds(month.request_time)}</TableCell>
            <ActionsCell>
              <DetailButton month={month} />
            </ActionsCell>
          </TableRow>
        ))}
      </ListTable>
    </ListPage>
  );
}
