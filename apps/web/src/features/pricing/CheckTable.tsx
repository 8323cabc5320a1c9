import ArrowForward from '@mui/icons-material/ArrowForward';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { PriceBody, PriceView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModelText } from './PriceParts.js';
import type { CheckRow, CheckStatus } from './priceCheck.js';
import { formatRatio, type OwnerOption } from './priceTable.js';

const statusColors: Record<CheckStatus, 'success' | 'info' | 'warning' | 'default' | 'error'> = {
  new: 'success',
  changed: 'info',
  locked: 'warning',
  onlyCurrent: 'default',
  same: 'default',
};

export function StatusChip({ status }: { status: CheckStatus }) {
  const { t } = useTranslation('pricing');
  return (
    <Chip
      size="small"
      color={statusColors[status]}
      variant={status === 'same' || status === 'onlyCurrent' ? 'outlined' : 'filled'}
      label={t(`check.status.${status}`)}
      data-testid="pricing-check-status"
      sx={{ fontWeight: 600 }}
    />
  );
}

/** A price in one line: multipliers, type and owner. */
function PriceSummary({
  price,
  owners,
  highlight,
}: {
  price: PriceView | PriceBody | undefined;
  owners: ReadonlyMap<number, OwnerOption>;
  highlight: readonly string[];
}) {
  const { t } = useTranslation('pricing');
  if (!price) {
    return (
      <Typography variant="body2" sx={{ color: 'text.disabled' }}>
        —
      </Typography>
    );
  }
  const strong = (field: string) => (highlight.includes(field) ? { fontWeight: 700, color: 'text.primary' } : {});
  return (
    <Box sx={{ lineHeight: 1.4, whiteSpace: 'nowrap', color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>
      <Typography variant="body2" component="span" sx={strong('input')}>
        {formatRatio(price.input)}
      </Typography>
      {price.type === 'tokens' && (
        <>
          {' / '}
          <Typography variant="body2" component="span" sx={strong('output')}>
            {formatRatio(price.output)}
          </Typography>
        </>
      )}
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
        <Box component="span" sx={strong('type')}>
          {t(`type.${price.type}`)}
        </Box>
        {' · '}
        <Box component="span" sx={strong('channel_type')}>
          {owners.get(price.channel_type)?.name ?? t('unknownOwner', { id: price.channel_type })}
        </Box>
        {highlight.includes('extra_ratios') && ` · ${t('check.extraChanged')}`}
      </Typography>
    </Box>
  );
}

const PAGE_SIZE = 50;

/** The comparison, one row per model: status, the stored price and the list's price. */
export function CheckTable({ rows, owners }: { rows: readonly CheckRow[]; owners: ReadonlyMap<number, OwnerOption> }) {
  const { t } = useTranslation('pricing');
  const [page, setPage] = useState(0);
  const lastPage = Math.max(0, Math.ceil(rows.length / PAGE_SIZE) - 1);
  const shown = rows.slice(Math.min(page, lastPage) * PAGE_SIZE, (Math.min(page, lastPage) + 1) * PAGE_SIZE);
  return (
    <>
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table size="small" sx={{ minWidth: 720, '& td, & th': { px: 1.5 } }} data-testid="pricing-check-list">
          <TableHead>
            <TableRow>
              <TableCell>{t('columns.model')}</TableCell>
              <TableCell>{t('check.columns.status')}</TableCell>
              <TableCell>{t('check.columns.current')}</TableCell>
              <TableCell padding="none" />
              <TableCell>{t('check.columns.incoming')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((row) => (
              <TableRow key={row.model} hover data-testid={`pricing-check-row-${row.model}`}>
                <TableCell sx={{ maxWidth: 280 }}>
                  <ModelText model={row.model} locked={row.current?.locked} />
                </TableCell>
                <TableCell>
                  <StatusChip status={row.status} />
                </TableCell>
                <TableCell>
                  <PriceSummary price={row.current} owners={owners} highlight={row.differences} />
                </TableCell>
                <TableCell padding="none" sx={{ color: 'text.disabled' }}>
                  {row.current && row.incoming && <ArrowForward fontSize="small" sx={{ verticalAlign: 'middle' }} />}
                </TableCell>
                <TableCell>
                  <Stack spacing={0.25}>
                    <PriceSummary price={row.incoming} owners={owners} highlight={row.differences} />
                  </Stack>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {rows.length > PAGE_SIZE && (
        <TablePagination
          component="div"
          count={rows.length}
          page={Math.min(page, lastPage)}
          rowsPerPage={PAGE_SIZE}
          rowsPerPageOptions={[PAGE_SIZE]}
          onPageChange={(_event, next) => setPage(next)}
          labelDisplayedRows={({ from, to, count }) => t('common:pagination.range', { from, to, count })}
          getItemAriaLabel={(type) => t(`common:pagination.${type}`)}
        />
      )}
    </>
  );
}
