import CompareArrowsOutlined from '@mui/icons-material/CompareArrowsOutlined';
import LeaderboardOutlined from '@mui/icons-material/LeaderboardOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { TOP_USERS_ORDERS, type TopUserRow, type TopUsersOrder } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartCard, ChoiceToggle } from '../../components/charts/ChartCard.js';
import { CsvExportButton } from '../../components/ExportButtons.js';
import { FetchingBar } from '../../components/FetchingBar.js';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { NumberCell } from '../../components/ListTable.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { downloadCsv } from '../../lib/download.js';
import { describeError } from '../../lib/notify.js';
import { useLatencyFormat } from './AnalyticsCard.js';
import { useTopUsers } from './analytics.api.js';
import type { DayRange } from './period.js';
import { tableFileStem, topUsersCsv } from './tableCsv.js';

const LIMITS = [10, 20, 50] as const;

interface TopUsersCardProps {
  range: DayRange;
  /** Adds a user to the comparison form. */
  onCompare(username: string): void;
}

function ShareBar({ share }: { share: number }) {
  return (
    <Box sx={{ mt: 0.5, height: 4, borderRadius: 2, bgcolor: 'action.hover', overflow: 'hidden', minWidth: 64 }}>
      <Box sx={{ width: `${Math.min(100, share)}%`, height: '100%', borderRadius: 2, bgcolor: 'primary.main' }} />
    </Box>
  );
}

/** The heaviest users of the period, ranked by quota or by requests. */
export function TopUsersCard({ range, onCompare }: TopUsersCardProps) {
  const { t } = useTranslation('analytics');
  const formatQuota = useQuotaFormatter();
  const formatLatency = useLatencyFormat();
  const [order, setOrder] = useState<TopUsersOrder>('quota');
  const [limit, setLimit] = useState<number>(LIMITS[0]);
  const top = useTopUsers(range, order, limit);
  const data = top.data;
  const rows = data?.users ?? [];

  const shareOf = (row: TopUserRow) => {
    const total = order === 'quota' ? data?.total_quota : data?.total_request_count;
    const value = order === 'quota' ? row.quota : row.request_count;
    return total ? (value / total) * 100 : 0;
  };

  return (
    <ChartCard
      title={t('topUsers.title')}
      subtitle={
        data
          ? t('topUsers.subtitle', { count: data.active_users, quota: formatQuota(data.total_quota) })
          : t('topUsers.subtitleLoading')
      }
      action={
        <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <ChoiceToggle
            value={order}
            options={TOP_USERS_ORDERS}
            labelOf={(option) => t(`topUsers.order.${option}`)}
            onChange={setOrder}
            label={t('topUsers.orderLabel')}
            testId="analytics-top-order"
          />
          <TextField
            select
            size="small"
            value={limit}
            onChange={(event) => setLimit(Number(event.target.value))}
            aria-label={t('topUsers.limitLabel')}
            sx={{ width: 120, '& .MuiSelect-select': { py: 0.625, fontSize: 14, fontWeight: 600 } }}
            slotProps={{ select: { inputProps: { 'data-testid': 'analytics-top-limit' } } }}
          >
            {LIMITS.map((value) => (
              <MenuItem key={value} value={value}>
                {t('topUsers.limit', { count: value })}
              </MenuItem>
            ))}
          </TextField>
          {rows.length > 0 && (
            <CsvExportButton
              onExport={() => downloadCsv(tableFileStem('top-users', range.from, range.to), topUsersCsv(rows))}
              testId="analytics-top-users-export"
            />
          )}
        </Stack>
      }
      testId="analytics-top-users"
    >
      <FetchingBar active={top.isFetching && Boolean(data)} />
      {top.isError && !data ? (
        <Alert severity="error">{t('topUsers.error', { message: describeError(top.error) })}</Alert>
      ) : !data ? (
        <Stack spacing={1}>
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} variant="rounded" height={44} />
          ))}
        </Stack>
      ) : rows.length === 0 ? (
        <ListEmptyState
          icon={LeaderboardOutlined}
          title={t('empty.topUsersTitle')}
          description={t('empty.topUsers')}
          testId="analytics-top-users-empty"
        />
      ) : (
        <TableContainer sx={{ mx: { xs: -2, sm: 0 }, width: { xs: 'calc(100% + 32px)', sm: '100%' } }}>
          <Table size="small" sx={{ minWidth: 640 }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 40 }}>{t('topUsers.columns.rank')}</TableCell>
                <TableCell>{t('topUsers.columns.user')}</TableCell>
                <TableCell align="right">{t('topUsers.columns.requests')}</TableCell>
                <TableCell align="right">{t('topUsers.columns.quota')}</TableCell>
                <TableCell align="right">{t('topUsers.columns.tokens')}</TableCell>
                <TableCell align="right">{t('topUsers.columns.latency')}</TableCell>
                <TableCell sx={{ width: 48 }} />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row, index) => {
                const name = row.username || t('topUsers.deletedUser', { id: row.user_id });
                return (
                  <TableRow key={row.user_id} hover data-testid={`analytics-top-user-${row.username || row.user_id}`}>
                    <TableCell sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>
                      {index + 1}
                    </TableCell>
                    <TableCell sx={{ maxWidth: 220 }}>
                      <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap data-testid="analytics-top-user-name">
                        {name}
                      </Typography>
                      {row.display_name && row.display_name !== row.username && (
                        <Typography variant="caption" sx={{ color: 'text.secondary' }} noWrap component="p">
                          {row.display_name}
                        </Typography>
                      )}
                    </TableCell>
                    <NumberCell testId="analytics-top-user-requests">
                      {row.request_count.toLocaleString()}
                      {order === 'request_count' && <ShareBar share={shareOf(row)} />}
                    </NumberCell>
                    <NumberCell testId="analytics-top-user-quota">
                      {formatQuota(row.quota)}
                      {order === 'quota' && <ShareBar share={shareOf(row)} />}
                    </NumberCell>
                    <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                      {t('topUsers.tokens', {
                        input: row.prompt_tokens.toLocaleString(),
                        output: row.completion_tokens.toLocaleString(),
                      })}
                    </TableCell>
                    <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                      {row.request_count > 0 ? formatLatency(row.request_time / row.request_count) : '—'}
                    </TableCell>
                    <TableCell padding="checkbox">
                      {row.username && (
                        <Tooltip title={t('topUsers.compare')}>
                          <IconButton
                            size="small"
                            onClick={() => onCompare(row.username)}
                            aria-label={t('topUsers.compareUser', { name: row.username })}
                            data-testid="analytics-top-user-compare"
                          >
                            <CompareArrowsOutlined fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </ChartCard>
  );
}
