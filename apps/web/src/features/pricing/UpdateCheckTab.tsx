import SyncOutlined from '@mui/icons-material/SyncOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { PriceBody } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { describeError, notify } from '../../lib/notify.js';
import { ApplyCard } from './ApplyCard.js';
import { CheckSourceCard, type Source, type Upload } from './CheckSourceCard.js';
import { CheckTable } from './CheckTable.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import {
  type ApplyMode,
  CHECK_STATUSES,
  type CheckStatus,
  comparePrices,
  countStatuses,
  expectedEffect,
} from './priceCheck.js';
import type { OwnerOption } from './priceTable.js';
import { useDefaultPrices, usePrices, useServicePrices, useSyncPrices, useUpdateServiceUrl } from './pricing.api.js';

/**
 * Statuses listed until the administrator picks others: what the list changes, and what it keeps.
 * Prices only in the current table are usually many; their chip lists them on demand.
 */
const DEFAULT_SHOWN: ReadonlySet<CheckStatus> = new Set(['new', 'changed', 'locked']);

/** Compares the stored prices with a price list (built-in or uploaded) and applies it. */
export function UpdateCheckTab({ ownerMap }: { ownerMap: ReadonlyMap<number, OwnerOption> }) {
  const { t } = useTranslation('pricing');
  const [source, setSource] = useState<Source>('default');
  const [upload, setUpload] = useState<Upload | null>(null);
  const [shown, setShown] = useState<ReadonlySet<CheckStatus>>(DEFAULT_SHOWN);
  const [mode, setMode] = useState<ApplyMode>('add');
  const [confirming, setConfirming] = useState(false);
  const current = usePrices();
  const defaults = useDefaultPrices(source === 'default');
  const serviceUrl = useUpdateServiceUrl().data ?? '';
  const service = useServicePrices(source === 'service' && serviceUrl !== '');
  const sync = useSyncPrices();

  const incoming: PriceBody[] | null =
    source === 'default'
      ? (defaults.data ?? null)
      : source === 'service'
        ? (service.data ?? null)
        : upload && 'prices' in upload
          ? upload.prices
          : null;
  // The list being read, whichever source it comes from.
  const fetched = source === 'default' ? defaults : source === 'service' ? service : undefined;
  const rows = useMemo(
    () => (incoming && current.data ? comparePrices(current.data, incoming) : null),
    [incoming, current.data],
  );
  const counts = rows ? countStatuses(rows) : null;
  const visible = rows?.filter((row) => shown.has(row.status)) ?? [];
  const effect = rows ? expectedEffect(rows, mode) : null;
  const loading = current.isPending || fetched?.isFetching === true;
  const failed = current.isError ? current.error : fetched?.isError ? fetched.error : null;

  const toggleStatus = (status: CheckStatus) =>
    setShown((now) => {
      const next = new Set(now);
      if (!next.delete(status)) next.add(status);
      return next;
    });
  const apply = () => {
    if (!incoming) return;
    sync.mutate(
      { mode, prices: incoming },
      {
        onSuccess: (result) => {
          setConfirming(false);
          notify.success(t('check.applied', { ...result }));
        },
      },
    );
  };

  return (
    <Stack spacing={3}>
      <CheckSourceCard
        source={source}
        onSource={setSource}
        upload={upload}
        onUpload={setUpload}
        serviceUrl={serviceUrl}
        service={service}
      />

      {failed ? (
        <Alert severity="error" data-testid="pricing-check-error">
          {describeError(failed)}
        </Alert>
      ) : loading ? (
        <Skeleton variant="rounded" height={220} />
      ) : rows && counts && effect ? (
        <>
          <ApplyCard
            mode={mode}
            onMode={setMode}
            effect={effect}
            locked={counts.locked}
            busy={sync.isPending && !confirming}
            onApply={() => (mode === 'overwrite' ? setConfirming(true) : apply())}
          />
          <Card>
            <Stack
              direction="row"
              sx={{ p: 2, flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
              data-testid="pricing-check-summary"
            >
              <Typography variant="subtitle2" sx={{ mr: 1 }}>
                {t('check.summary', { count: rows.length })}
              </Typography>
              {CHECK_STATUSES.map((status) => (
                <Chip
                  key={status}
                  clickable
                  onClick={() => toggleStatus(status)}
                  color={shown.has(status) ? 'primary' : 'default'}
                  variant={shown.has(status) ? 'filled' : 'outlined'}
                  label={t(`check.counts.${status}`, { count: counts[status] })}
                  data-testid={`pricing-check-count-${status}`}
                  data-count={counts[status]}
                  aria-pressed={shown.has(status)}
                />
              ))}
            </Stack>
            <Divider />
            {visible.length === 0 ? (
              <ListEmptyState
                icon={SyncOutlined}
                title={t('check.nothingTitle')}
                description={t('check.nothing')}
                testId="pricing-check-empty"
              />
            ) : (
              <CheckTable rows={visible} owners={ownerMap} />
            )}
          </Card>
        </>
      ) : (
        <ListEmptyState
          icon={UploadFileOutlined}
          title={t('check.waitingTitle')}
          description={t('check.waiting')}
          testId="pricing-check-waiting"
        />
      )}

      <ConfirmDialog
        open={confirming}
        title={t('check.overwriteTitle')}
        message={t('check.overwriteMessage', { remove: effect?.remove ?? 0, locked: counts?.locked ?? 0 })}
        confirmLabel={t('check.overwriteConfirm')}
        busy={sync.isPending}
        onConfirm={apply}
        onClose={() => setConfirming(false)}
        testId="pricing-check-overwrite-dialog"
      />
    </Stack>
  );
}
