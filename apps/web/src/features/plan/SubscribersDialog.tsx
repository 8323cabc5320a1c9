import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { PlanView, SubscriberView } from '@one-hub/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { FormDialog } from '../../components/FormDialog.js';
import { ListPagination } from '../../components/ListPagination.js';
import { ListLoadError } from '../../components/ListStates.js';
import { Timestamp } from '../../components/Timestamp.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useLastShown } from '../../hooks/useLastShown.js';
import { describeError, notify } from '../../lib/notify.js';
import { SUBSCRIBERS_PAGE_SIZE, useEndSubscription, usePlanSubscribers } from './plan.api.js';

/** The holder as a person reads them: display name (when it differs), username and id. */
function holderText(row: SubscriberView): string {
  const name = row.display_name && row.display_name !== row.username ? `${row.display_name} · ` : '';
  return `${name}${row.username || '—'} (#${row.user_id})`;
}

function SubscriberRow({ row, onEnd }: { row: SubscriberView; onEnd(row: SubscriberView): void }) {
  const { t } = useTranslation('plan');
  const button = (
    <Button
      size="small"
      color="error"
      disabled={!row.endable}
      onClick={() => onEnd(row)}
      sx={{ whiteSpace: 'nowrap' }}
      data-testid={`plan-subscriber-end-${row.id}`}
    >
      {t('subscribers.end')}
    </Button>
  );
  return (
    <TableRow hover data-testid={`plan-subscriber-${row.id}`}>
      <TableCell sx={{ overflowWrap: 'anywhere' }} data-testid={`plan-subscriber-user-${row.id}`}>
        {holderText(row)}
      </TableCell>
      <TableCell>{row.source === 'grant' ? t('current.granted') : t('current.bought')}</TableCell>
      <TableCell>
        <Timestamp value={row.started_at} />
      </TableCell>
      <TableCell>
        <Timestamp value={row.expires_at} />
      </TableCell>
      <TableCell align="right">
        {row.endable ? (
          button
        ) : (
          <Tooltip title={t('subscribers.outranked')}>
            <span>{button}</span>
          </Tooltip>
        )}
      </TableCell>
    </TableRow>
  );
}

/** Asks before ending a subscription now; the server's refusal stays in the dialog. */
function EndSubscriptionDialog({ row, onClose }: { row: SubscriberView | null; onClose(): void }) {
  const { t } = useTranslation('plan');
  const end = useEndSubscription();
  const close = () => {
    end.reset();
    onClose();
  };
  const confirm = () => {
    if (!row) return;
    end.mutate(row.id, {
      onSuccess: () => {
        notify.success(t('notify.ended', { name: row.plan_name, user: row.username }));
        close();
      },
    });
  };
  return (
    <ConfirmDialog
      open={row !== null}
      title={t('subscribers.endTitle')}
      message={t('subscribers.endMessage', { user: row ? holderText(row) : '', name: row?.plan_name ?? '' })}
      confirmLabel={t('subscribers.end')}
      cancelLabel={t('form.cancel')}
      busy={end.isPending}
      onConfirm={confirm}
      onClose={close}
      testId="plan-end-dialog"
      confirmTestId="plan-end-confirm"
      cancelTestId="plan-end-cancel"
    >
      {end.isError && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="plan-end-error">
          {describeError(end.error)}
        </Alert>
      )}
    </ConfirmDialog>
  );
}

/** The subscriptions of a plan running now, each with a button that ends it after confirming. */
export function SubscribersDialog({ plan, onClose }: { plan: PlanView | null; onClose(): void }) {
  const { t } = useTranslation('plan');
  const compact = useCompact('sm');
  const shown = useLastShown(plan);
  const [page, setPage] = useState(1);
  const [ending, setEnding] = useState<SubscriberView | null>(null);
  const subscribers = usePlanSubscribers(plan?.id ?? null, page);
  const rows = subscribers.data?.data ?? [];
  const total = subscribers.data?.total_count ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / SUBSCRIBERS_PAGE_SIZE));
  // Ending the last row of the last page leaves that page empty: show the one before.
  useEffect(() => {
    if (subscribers.isSuccess && page > lastPage) setPage(lastPage);
  }, [subscribers.isSuccess, page, lastPage]);
  const close = () => {
    setPage(1);
    onClose();
  };
  return (
    <FormDialog open={plan !== null} onClose={close} maxWidth="md" testId="plan-subscribers-dialog">
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{t('subscribers.title', { name: shown?.name ?? '' })}</DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        <Box sx={{ height: 4 }}>{subscribers.isFetching && <LinearProgress />}</Box>
        {subscribers.isError ? (
          <ListLoadError
            error={subscribers.error}
            onRetry={() => void subscribers.refetch()}
            testId="plan-subscribers-error"
          />
        ) : subscribers.isSuccess && total === 0 ? (
          <Typography sx={{ p: 3, color: 'text.secondary' }} data-testid="plan-subscribers-empty">
            {t('subscribers.empty')}
          </Typography>
        ) : (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" data-testid="plan-subscribers-list" sx={{ minWidth: 640 }}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('subscribers.user')}</TableCell>
                  <TableCell>{t('subscribers.source')}</TableCell>
                  <TableCell>{t('subscribers.started')}</TableCell>
                  <TableCell>{t('subscribers.expires')}</TableCell>
                  <TableCell align="right">{t('columns.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => (
                  <SubscriberRow key={row.id} row={row} onEnd={setEnding} />
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
        <ListPagination
          total={total}
          page={page}
          lastPage={lastPage}
          size={SUBSCRIBERS_PAGE_SIZE}
          sizes={[SUBSCRIBERS_PAGE_SIZE]}
          compact={compact}
          onPage={setPage}
          onSize={() => undefined}
          testId="plan-subscribers-pagination"
        />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={close} data-testid="plan-subscribers-close">
          {t('subscribers.close')}
        </Button>
      </DialogActions>
      <EndSubscriptionDialog row={ending} onClose={() => setEnding(null)} />
    </FormDialog>
  );
}
