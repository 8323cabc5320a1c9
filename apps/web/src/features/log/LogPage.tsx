import DeleteSweepOutlined from '@mui/icons-material/DeleteSweepOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportMenu } from '../../components/ExportButtons.js';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPage } from '../../components/ListPage.js';
import { ListCountRow } from '../../components/ListPanel.js';
import { RefreshButton } from '../../components/RefreshButton.js';
import { useListPanel } from '../../components/useListPage.js';
import { activeFilterCount, filtersOf } from '../../hooks/listParams.js';
import { useSession } from '../../hooks/useSession.js';
import { CleanupDialog } from './CleanupDialog.js';
import { LogFilterBar } from './LogFilterBar.js';
import { LogStats } from './LogStats.js';
import { LogsTable } from './LogsTable.js';
import { logExportHref, useLogStat, useLogs } from './log.api.js';
import { useLogListParams } from './useLogListParams.js';

export function LogPage() {
  const { t } = useTranslation('log');
  const { isAdmin } = useSession();
  const listParams = useLogListParams();
  const [params, update] = listParams;
  const filters = useMemo(() => filtersOf(params), [params]);
  const logs = useLogs(isAdmin, params);
  const panel = useListPanel('log', listParams, logs, 'sm');
  const { compact } = panel;
  const stat = useLogStat(isAdmin, filters);
  const [cleanup, setCleanup] = useState({ open: false, session: 0 });

  const refresh = () => {
    void logs.refetch();
    void stat.refetch();
  };
  const filtered = activeFilterCount(filters) > 0;

  return (
    <ListPage
      title={t('title')}
      subtitle={isAdmin ? t('subtitleAdmin') : t('subtitle')}
      {...panel}
      toolbar={
        <>
          <LogFilterBar
            filters={filters}
            admin={isAdmin}
            compact={compact}
            onApply={(next) => update({ ...next, page: 1 })}
          />
          <Divider />
          <LogStats stat={stat.data} loading={stat.isLoading} logType={filters.log_type} />
          <ListCountRow text={t('totalCount', { count: logs.data?.total_count ?? 0 })} testId="log-total">
            {/* Rarely needed and destructive (behind a confirmation): a quiet icon, not the page's first button. */}
            {isAdmin && (
              <Tooltip title={t('cleanup.open')}>
                <IconButton
                  onClick={() => setCleanup((current) => ({ open: true, session: current.session + 1 }))}
                  aria-label={t('cleanup.open')}
                  data-testid="log-cleanup"
                >
                  <DeleteSweepOutlined />
                </IconButton>
              </Tooltip>
            )}
            <ExportMenu hrefOf={(format) => logExportHref(isAdmin, filters, format)} testId="log-export" />
            <RefreshButton label={t('refresh')} onClick={refresh} testId="log-refresh" />
          </ListCountRow>
        </>
      }
      empty={
        <ListEmptyState
          icon={ReceiptLongOutlined}
          title={filtered ? t('empty.noMatchTitle') : t('empty.title')}
          description={filtered ? t('empty.noMatch') : t('empty.description')}
          testId="log-empty"
        />
      }
      dialogs={
        isAdmin && (
          <CleanupDialog
            open={cleanup.open}
            session={cleanup.session}
            onClose={() => setCleanup((current) => ({ ...current, open: false }))}
          />
        )
      }
    >
      <LogsTable
        logs={logs.data?.data ?? []}
        loading={logs.isLoading}
        admin={isAdmin}
        order={params.order}
        onSort={(order) => update({ order })}
        compact={compact}
      />
    </ListPage>
  );
}
