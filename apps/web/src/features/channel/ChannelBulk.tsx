import AccountBalanceWalletOutlined from '@mui/icons-material/AccountBalanceWalletOutlined';
import Close from '@mui/icons-material/Close';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DeleteSweepOutlined from '@mui/icons-material/DeleteSweepOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import RemoveCircleOutline from '@mui/icons-material/RemoveCircleOutlineOutlined';
import Speed from '@mui/icons-material/Speed';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { menuItems } from '../../components/menuItems.js';
import { SelectionBar } from '../../components/SelectionBar.js';
import { useMenuAnchor } from '../../hooks/useMenuAnchor.js';
import { notify } from '../../lib/notify.js';
import type { BatchKind } from './ChannelDialogs.js';
import { channelKeys, type TestAllProgress, useTestAllProgress } from './channel.api.js';

interface BatchBarProps {
  count: number;
  onDelete(): void;
  onBatch(kind: BatchKind): void;
  onClear(): void;
}

/** Actions on the selected channels; it stays at the bottom of the window while the list scrolls. */
export function BatchBar({ count, onDelete, onBatch, onClear }: BatchBarProps) {
  const { t } = useTranslation('channel');
  return (
    <SelectionBar
      placement={{ kind: 'floating', open: count > 0 }}
      testId="channel-batch-bar"
      countText={t('batch.selectedCount', { count: count })}
      countTestId="channel-batch-count"
      actions={[
        {
          label: t('batch.azure_api.button'),
          onClick: () => onBatch('azure_api'),
          icon: <TuneOutlined />,
          testId: 'channel-batch-azure',
        },
        {
          label: t('batch.del_model.button'),
          onClick: () => onBatch('del_model'),
          icon: <RemoveCircleOutline />,
          testId: 'channel-batch-del-model',
        },
        {
          label: t('batch.delete'),
          onClick: onDelete,
          variant: 'contained',
          color: 'error',
          icon: <DeleteOutlined />,
          testId: 'channel-batch-delete',
        },
      ]}
      end={
        <Tooltip title={t('batch.clear')}>
          <IconButton size="small" aria-label={t('batch.clear')} onClick={onClear} data-testid="channel-batch-clear">
            <Close fontSize="small" />
          </IconButton>
        </Tooltip>
      }
    />
  );
}

function percent(progress: TestAllProgress): number {
  return progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
}

/**
 * The progress of "test all channels", polled from the server while it runs; when the run ends the
 * list reloads (statuses and response times changed) and a summary toast appears.
 */
export function TestAllProgressBanner({ started }: { started: number }) {
  const { t } = useTranslation('channel');
  const queryClient = useQueryClient();
  const progress = useTestAllProgress();
  const wasRunning = useRef(false);
  const data = progress.data;

  // A run this page started counts as running even if it ends before the first poll sees it.
  useEffect(() => {
    if (started > 0) wasRunning.current = true;
  }, [started]);

  useEffect(() => {
    if (!data) return;
    if (data.running) {
      wasRunning.current = true;
      return;
    }
    if (!wasRunning.current) return;
    wasRunning.current = false;
    void queryClient.invalidateQueries({ queryKey: channelKeys.rows });
    notify.success(t('testAll.finished', { done: data.done, failed: data.failed }));
  }, [data, queryClient, t]);

  if (!data?.running) return null;
  return (
    <Alert
      severity="info"
      icon={<Speed />}
      data-testid="channel-test-all-progress"
      data-done={data.done}
      data-total={data.total}
      sx={{ mx: 2, mb: 2, '& .MuiAlert-message': { flex: 1 } }}
    >
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', mb: 0.75 }}>
        <span>{t('testAll.running', { done: data.done, total: data.total })}</span>
        {data.failed > 0 && (
          <Box component="span" sx={{ color: 'error.main', fontWeight: 600 }}>
            {t('testAll.failed', { count: data.failed })}
          </Box>
        )}
      </Stack>
      <LinearProgress variant={data.total ? 'determinate' : 'indeterminate'} value={percent(data)} />
    </Alert>
  );
}

/** Test all, delete all disabled, refresh all balances. */
export function BulkMenu({
  onTestAll,
  onDeleteDisabled,
  onRefreshBalances,
  testing,
}: {
  onTestAll(): void;
  onDeleteDisabled(): void;
  onRefreshBalances(): void;
  testing: boolean;
}) {
  const { t } = useTranslation('channel');
  const { show, close, menu } = useMenuAnchor();
  return (
    <>
      <Tooltip title={t('bulk.menu')}>
        <IconButton onClick={show} aria-label={t('bulk.menu')} data-testid="channel-bulk-menu">
          <MoreVert />
        </IconButton>
      </Tooltip>
      <Menu {...menu}>
        {menuItems(
          [
            {
              testId: 'channel-test-all',
              icon: <Speed fontSize="small" />,
              label: t('bulk.testAll'),
              hint: t('bulk.testAllHint'),
              onClick: onTestAll,
              disabled: testing,
            },
            {
              testId: 'channel-refresh-balances',
              icon: <AccountBalanceWalletOutlined fontSize="small" />,
              label: t('bulk.balances'),
              hint: t('bulk.balancesHint'),
              onClick: onRefreshBalances,
            },
            {
              testId: 'channel-delete-disabled',
              icon: <DeleteSweepOutlined fontSize="small" />,
              label: t('bulk.deleteDisabled'),
              hint: t('bulk.deleteDisabledHint'),
              onClick: onDeleteDisabled,
              danger: true,
            },
          ],
          close,
        )}
      </Menu>
    </>
  );
}
