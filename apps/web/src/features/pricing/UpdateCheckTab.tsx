import CloudDownloadOutlined from '@mui/icons-material/CloudDownloadOutlined';
import CompareArrows from '@mui/icons-material/CompareArrows';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import SyncOutlined from '@mui/icons-material/SyncOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { PriceBody } from '@one-hub/contracts';
import { type ChangeEvent, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { SectionCard } from '../../components/SectionCard.js';
import { describeError, notify } from '../../lib/notify.js';
import { CheckTable } from './CheckTable.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import {
  APPLY_MODES,
  type ApplyMode,
  CHECK_STATUSES,
  type CheckStatus,
  comparePrices,
  countStatuses,
  expectedEffect,
  parsePriceFile,
} from './priceCheck.js';
import type { OwnerOption } from './priceTable.js';
import { useDefaultPrices, usePrices, useServicePrices, useSyncPrices, useUpdateServiceUrl } from './pricing.api.js';

type Source = 'default' | 'file' | 'service';
type Upload = { name: string; prices: PriceBody[] } | { name: string; errors: string[] };

/**
 * Statuses listed until the administrator picks others: what the list changes, and what it keeps.
 * Prices only in the current table are usually many; their chip lists them on demand.
 */
const DEFAULT_SHOWN: ReadonlySet<CheckStatus> = new Set(['new', 'changed', 'locked']);

function FilePicker({ upload, onUpload }: { upload: Upload | null; onUpload(upload: Upload): void }) {
  const { t } = useTranslation('pricing');
  const input = useRef<HTMLInputElement>(null);
  const read = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const result = parsePriceFile(await file.text(), (key, options) => t(key, options));
    onUpload(result.ok ? { name: file.name, prices: result.prices } : { name: file.name, errors: result.errors });
  };
  return (
    <Stack spacing={1.5}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
        <Button
          variant="outlined"
          startIcon={<UploadFileOutlined />}
          onClick={() => input.current?.click()}
          data-testid="pricing-check-choose"
        >
          {t('check.chooseFile')}
        </Button>
        <input
          ref={input}
          type="file"
          accept=".json,application/json"
          hidden
          onChange={(event) => void read(event)}
          data-testid="pricing-check-file"
        />
        <Typography
          variant="body2"
          sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}
          data-testid="pricing-check-file-name"
        >
          {upload ? upload.name : t('check.fileHint')}
        </Typography>
      </Stack>
      {upload && 'errors' in upload && (
        <Alert severity="error" data-testid="pricing-check-file-error">
          <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.5 }}>
            {t('check.errors.title')}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {upload.errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </Box>
        </Alert>
      )}
    </Stack>
  );
}

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
      <SectionCard
        icon={<CompareArrows />}
        title={t('check.sourceTitle')}
        subtitle={t('check.sourceSubtitle')}
        fill="none"
        testId="pricing-check-source"
      >
        <Stack spacing={2}>
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            value={source}
            onChange={(_event, next: Source | null) => next && setSource(next)}
            sx={{ flexWrap: 'wrap' }}
          >
            <ToggleButton value="default" data-testid="pricing-check-source-default">
              <Inventory2Outlined fontSize="small" sx={{ mr: 1 }} />
              {t('check.sourceDefault')}
            </ToggleButton>
            <ToggleButton value="file" data-testid="pricing-check-source-file">
              <UploadFileOutlined fontSize="small" sx={{ mr: 1 }} />
              {t('check.sourceFile')}
            </ToggleButton>
            {serviceUrl && (
              <ToggleButton value="service" data-testid="pricing-check-source-service">
                <CloudDownloadOutlined fontSize="small" sx={{ mr: 1 }} />
                {t('check.sourceService')}
              </ToggleButton>
            )}
          </ToggleButtonGroup>
          {source === 'file' && <FilePicker upload={upload} onUpload={setUpload} />}
          {source === 'service' && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
              <Button
                variant="outlined"
                startIcon={<CloudDownloadOutlined />}
                loading={service.isFetching}
                onClick={() => void service.refetch()}
                data-testid="pricing-check-service-refetch"
              >
                {t('check.serviceRefetch')}
              </Button>
              <Typography
                variant="body2"
                sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}
                data-testid="pricing-check-service-url"
              >
                {t('check.serviceHint', { url: serviceUrl })}
              </Typography>
            </Stack>
          )}
        </Stack>
      </SectionCard>

      {failed ? (
        <Alert severity="error" data-testid="pricing-check-error">
          {describeError(failed)}
        </Alert>
      ) : loading ? (
        <Skeleton variant="rounded" height={220} />
      ) : rows && counts && effect ? (
        <>
          <SectionCard
            icon={<SyncOutlined />}
            title={t('check.applyTitle')}
            subtitle={t('check.applySubtitle')}
            fill="none"
            testId="pricing-check-apply-card"
          >
            <Stack spacing={2}>
              <RadioGroup value={mode} onChange={(event) => setMode(event.target.value as ApplyMode)}>
                {APPLY_MODES.map((option) => (
                  <FormControlLabel
                    key={option}
                    value={option}
                    control={
                      <Radio slotProps={{ input: { 'data-testid': `pricing-check-mode-${option}` } as object }} />
                    }
                    sx={{ alignItems: 'flex-start', mb: 1, '& .MuiRadio-root': { mt: -0.75 } }}
                    label={
                      <Box>
                        <Typography variant="body2" sx={{ fontWeight: 600 }}>
                          {t(`check.modes.${option}`)}
                        </Typography>
                        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                          {t(`check.modeHints.${option}`)}
                        </Typography>
                      </Box>
                    }
                  />
                ))}
              </RadioGroup>
              <Alert severity={mode === 'overwrite' ? 'warning' : 'info'} data-testid="pricing-check-effect">
                {t('check.effect', {
                  add: effect.add,
                  update: effect.update,
                  remove: effect.remove,
                  locked: counts.locked,
                })}
              </Alert>
              <Box>
                <Button
                  variant="contained"
                  color={mode === 'overwrite' ? 'warning' : 'primary'}
                  startIcon={<SyncOutlined />}
                  loading={sync.isPending && !confirming}
                  onClick={() => (mode === 'overwrite' ? setConfirming(true) : apply())}
                  data-testid="pricing-check-apply"
                >
                  {t('check.apply', { mode: t(`check.modes.${mode}`) })}
                </Button>
              </Box>
            </Stack>
          </SectionCard>
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
