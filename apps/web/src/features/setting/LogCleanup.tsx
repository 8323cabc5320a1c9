import DeleteSweepOutlined from '@mui/icons-material/DeleteSweepOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatTimestamp } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmActions } from '../../components/ConfirmDialog.js';
import { DAY_SECONDS, useCleanupCutoff, useDeleteOldLogs } from '../../hooks/useLogCleanup.js';
import { describeError, notify } from '../../lib/notify.js';

const PRESET_DAYS = [7, 30, 90, 180] as const;

/** Deletes consume logs older than a chosen time (`DELETE /api/log/`), after a confirmation. */
export function LogCleanup() {
  const { t } = useTranslation('setting');
  const [confirming, setConfirming] = useState(false);
  const [deleted, setDeleted] = useState<number | null>(null);
  // A new time hides the result of the last clean-up.
  const cutoff = useCleanupCutoff({ required: t('logCleanup.required'), future: t('logCleanup.future') }, () =>
    setDeleted(null),
  );
  const cleanup = useDeleteOldLogs();
  const target = cutoff.target;

  const ask = () => {
    if (!cutoff.check()) return;
    cleanup.reset();
    setConfirming(true);
  };
  const confirm = () =>
    cleanup.mutate(target, {
      onSuccess: (count) => {
        setDeleted(count);
        setConfirming(false);
        notify.success(t('logCleanup.done', { count }));
      },
    });

  return (
    <Box>
      <Typography variant="subtitle2">{t('logCleanup.title')}</Typography>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mb: 1.5 }}>
        {t('logCleanup.description')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          type="datetime-local"
          size="small"
          label={t('logCleanup.before')}
          value={cutoff.value}
          onChange={(event) => cutoff.setValue(event.target.value)}
          error={Boolean(cutoff.error)}
          helperText={cutoff.error || ' '}
          sx={{ flex: 1 }}
          slotProps={{
            inputLabel: { shrink: true },
            htmlInput: { step: 1, 'data-testid': 'setting-log-cleanup-time' },
          }}
        />
        <Button
          variant="outlined"
          color="error"
          startIcon={<DeleteSweepOutlined />}
          onClick={ask}
          data-testid="setting-log-cleanup"
          sx={{ whiteSpace: 'nowrap', height: 40 }}
        >
          {t('logCleanup.action')}
        </Button>
      </Stack>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        {PRESET_DAYS.map((days) => (
          <Chip
            key={days}
            size="small"
            variant="outlined"
            clickable
            label={t('logCleanup.olderThan', { count: days })}
            onClick={() => cutoff.setAge(days * DAY_SECONDS)}
          />
        ))}
      </Stack>
      {deleted !== null && (
        <Alert severity="success" sx={{ mt: 1.5 }} data-testid="setting-log-cleanup-result" data-count={deleted}>
          {t('logCleanup.done', { count: deleted })}
        </Alert>
      )}

      <Dialog open={confirming} onClose={() => setConfirming(false)} maxWidth="xs" fullWidth>
        <DialogTitle>{t('logCleanup.confirmTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              {t('logCleanup.confirmText', { time: Number.isNaN(target) ? '' : formatTimestamp(target) })}
            </DialogContentText>
            {cleanup.isError && <Alert severity="error">{describeError(cleanup.error)}</Alert>}
          </Stack>
        </DialogContent>
        <ConfirmActions
          cancelLabel={t('logCleanup.cancel')}
          confirmLabel={t('logCleanup.confirm')}
          busy={cleanup.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={confirm}
          confirmTestId="setting-log-cleanup-confirm"
        />
      </Dialog>
    </Box>
  );
}
