import DeleteSweepOutlined from '@mui/icons-material/DeleteSweepOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import Refresh from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FetchingBar } from '../../components/FetchingBar.js';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPagination } from '../../components/ListPagination.js';
import { PageHeader } from '../../components/PageHeader.js';
import { activeFilterCount, PAGE_SIZES } from '../../hooks/listParams.js';
import { useSession } from '../../hooks/useSession.js';
import { useLastPage } from '../../hooks/useUrlListParams.js';
import { CleanupDialog } from './CleanupDialog.js';
import { LogFilterBar } from './LogFilterBar.js';
import { LogStats } from './LogStats.js';
import { LogsTable } from './LogsTable.js';
import { useLogStat, useLogs } from './log.api.js';
import { filtersOf, useLogListParams } from './useLogListParams.js';

export function LogPage() {
  const { t } = useTranslation('log');
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const { isAdmin } = useSession();
  const [params, update] = useLogListParams();
  const filters = useMemo(() => filtersOf(params), [params]);
  const logs = useLogs(isAdmin, params);
  const stat = useLogStat(isAdmin, filters);
  const [cleanup, setCleanup] = useState({ open: false, session: 0 });

  const rows = logs.data?.data ?? [];
  const total = logs.data?.total_count ?? 0;
  const goToPage = useCallback((page: number) => update({ page }), [update]);
  const lastPage = useLastPage(
    { loaded: Boolean(logs.data), rows: rows.length, total, page: params.page, size: params.size },
    goToPage,
  );

  const refresh = () => {
    void logs.refetch();
    void stat.refetch();
  };
  const empty = !logs.isLoading && rows.length === 0 && !logs.isError;
  const filtered = activeFilterCount(filters) > 0;

  return (
    <Box>
      <PageHeader title={t('title')} subtitle={isAdmin ? t('subtitleAdmin') : t('subtitle')} />

      <Card>
        <LogFilterBar
          filters={filters}
          admin={isAdmin}
          compact={compact}
          onApply={(next) => update({ ...next, page: 1 })}
        />
        <Divider />
        <LogStats stat={stat.data} loading={stat.isLoading} logType={filters.log_type} />
        <Stack direction="row" sx={{ px: 2, py: 1, alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="log-total">
            {t('totalCount', { count: total })}
          </Typography>
          <Stack direction="row" spacing={0.5}>
            {/* Rarely needed and destructive (behind a confirmation): a quiet icon, not the page's first button. */}
            {isAdmin && (
              <Tooltip title={t('cleanup.open')}>
                <IconButton
                  size="small"
                  onClick={() => setCleanup((current) => ({ open: true, session: current.session + 1 }))}
                  aria-label={t('cleanup.open')}
                  data-testid="log-cleanup"
                >
                  <DeleteSweepOutlined fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
            <Tooltip title={t('refresh')}>
              <IconButton size="small" onClick={refresh} aria-label={t('refresh')} data-testid="log-refresh">
                <Refresh fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
        </Stack>
        <FetchingBar active={logs.isFetching && !logs.isLoading} />
        <Divider />

        {empty ? (
          <ListEmptyState
            icon={ReceiptLongOutlined}
            title={filtered ? t('empty.noMatchTitle') : t('empty.title')}
            description={filtered ? t('empty.noMatch') : t('empty.description')}
            testId="log-empty"
          />
        ) : (
          <LogsTable
            logs={rows}
            loading={logs.isLoading}
            admin={isAdmin}
            order={params.order}
            onSort={(order) => update({ order })}
            compact={compact}
          />
        )}

        <ListPagination
          total={total}
          page={params.page}
          lastPage={lastPage}
          size={params.size}
          sizes={PAGE_SIZES}
          compact={compact}
          onPage={goToPage}
          onSize={(size) => update({ size })}
          testId="log-pagination"
        />
      </Card>

      {isAdmin && (
        <CleanupDialog
          open={cleanup.open}
          session={cleanup.session}
          onClose={() => setCleanup((current) => ({ ...current, open: false }))}
        />
      )}
    </Box>
  );
}
