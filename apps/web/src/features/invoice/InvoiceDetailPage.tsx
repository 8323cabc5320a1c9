import ArrowBack from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { InvoiceModelRow } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.js';
import { Quota } from '../../components/Quota.js';
import { describeError } from '../../lib/notify.js';
import { useInvoiceDetail } from './invoice.api.js';
import { monthLabel, seconds } from './invoiceParams.js';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])-01$/;

function total(rows: readonly InvoiceModelRow[]) {
  const sum = (pick: (row: InvoiceModelRow) => number) => rows.reduce((sum, row) => sum + pick(row), 0);
  return {
    request_count: sum((row) => row.request_count),
    quota: sum((row) => row.quota),
    prompt_tokens: sum((row) => row.prompt_tokens),
    completion_tokens: sum((row) => row.completion_tokens),
    request_time: sum((row) => row.request_time),
  };
}

/** One month's invoice: a line per model and the month's total. */
export function InvoiceDetailPage() {
  const { t, i18n } = useTranslation('invoice');
  const month = useParams().date ?? '';
  const valid = MONTH.test(month);
  const detail = useInvoiceDetail(valid ? month : '');
  const rows = detail.data ?? [];
  const sums = total(rows);

  return (
    <Box>
      <PageHeader
        title={valid ? t('detail.title', { month: monthLabel(month, i18n.language) }) : t('title')}
        subtitle={t('detail.subtitle')}
        action={
          <Button component={RouterLink} to="/panel/invoice" startIcon={<ArrowBack />} data-testid="invoice-back">
            {t('detail.back')}
          </Button>
        }
      />
      {!valid ? (
        <Alert severity="warning">{t('detail.badMonth')}</Alert>
      ) : detail.isError ? (
        <Alert severity="error">{describeError(detail.error)}</Alert>
      ) : (
        <Card>
          <TableContainer sx={{ overflowX: 'auto' }}>
            <Table
              size="small"
              sx={{ minWidth: 720, '& td, & th': { whiteSpace: 'nowrap', px: 1.5 } }}
              data-testid="invoice-detail"
            >
              <TableHead>
                <TableRow>
                  <TableCell>{t('columns.model')}</TableCell>
                  <TableCell align="right">{t('columns.requests')}</TableCell>
                  <TableCell align="right">{t('columns.quota')}</TableCell>
                  <TableCell align="right">{t('columns.promptTokens')}</TableCell>
                  <TableCell align="right">{t('columns.completionTokens')}</TableCell>
                  <TableCell align="right">{t('columns.time')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {detail.isPending ? (
                  <TableRow>
                    <TableCell colSpan={6}>
                      <Skeleton height={32} />
                    </TableCell>
                  </TableRow>
                ) : rows.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={6} sx={{ color: 'text.secondary', textAlign: 'center', py: 4 }}>
                      {t('detail.empty')}
                    </TableCell>
                  </TableRow>
                ) : (
                  rows.map((row) => (
                    <TableRow key={row.model_name} hover data-testid={`invoice-line-${row.model_name}`}>
                      <TableCell sx={{ fontFamily: 'monospace' }}>{row.model_name}</TableCell>
                      <TableCell align="right">{row.request_count.toLocaleString()}</TableCell>
                      <TableCell align="right">
                        <Quota value={row.quota} />
                      </TableCell>
                      <TableCell align="right">{row.prompt_tokens.toLocaleString()}</TableCell>
                      <TableCell align="right">{row.completion_tokens.toLocaleString()}</TableCell>
                      <TableCell align="right">{seconds(row.request_time)}</TableCell>
                    </TableRow>
                  ))
                )}
              </TableBody>
              {rows.length > 0 && (
                <TableFooter>
                  <TableRow sx={{ '& td': { fontWeight: 700, color: 'text.primary', fontSize: 14 } }}>
                    <TableCell>{t('detail.total')}</TableCell>
                    <TableCell align="right">{sums.request_count.toLocaleString()}</TableCell>
                    <TableCell align="right" data-testid="invoice-total-quota">
                      <Quota value={sums.quota} />
                    </TableCell>
                    <TableCell align="right">{sums.prompt_tokens.toLocaleString()}</TableCell>
                    <TableCell align="right">{sums.completion_tokens.toLocaleString()}</TableCell>
                    <TableCell align="right">{seconds(sums.request_time)}</TableCell>
                  </TableRow>
                </TableFooter>
              )}
            </Table>
          </TableContainer>
        </Card>
      )}
    </Box>
  );
}
