import CheckCircleOutlineOutlined from '@mui/icons-material/CheckCircleOutlineOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmActions } from '../../components/ConfirmDialog.js';
import { DAY_SECONDS, useCleanupCutoff, useDeleteOldLogs } from '../../hooks/useLogCleanup.js';
import { describeError, notify } from '../../lib/notify.js';

/** How far back the quick choices reach; 0 = everything up to now. */
const PRESETS = [
  { id: 'days90', age: 90 * DAY_SECONDS },
  { id: 'days30', age: 30 * DAY_SECONDS },
  { id: 'days7', age: 7 * DAY_SECONDS },
  { id: 'now', age: 0 },
] as const;

function CleanupForm({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('log');
  const cutoff = useCleanupCutoff({ required: t('cleanup.errors.required'), future: t('cleanup.errors.future') });
  const [deleted, setDeleted] = useState<number | null>(null);
  const cleanup = useDeleteOldLogs();

  const confirm = () => {
    if (!cutoff.check()) return;
    cleanup.mutate(cutoff.target, {
      onSuccess: (count) => {
        setDeleted(count);
        notify.success(t('cleanup.done', { count }));
      },
    });
  };

  if (deleted !== null) {
    return (
      <>
        <DialogContent>
          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }}>
            <CheckCircleOutlineOutlined color="success" sx={{ fontSize: 48 }} />
            <Typography variant="h6" component="p" data-testid="log-cleanup-result" data-count={deleted}>
              {t('cleanup.done', { count: deleted })}
            </Typography>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button variant="contained" onClick={onClose} data-testid="log-cleanup-close">
            {t('cleanup.close')}
          </Button>
        </DialogActions>
      </>
    );
  }

  return (
    <>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>{t('cleanup.description')}</DialogContentText>
          {cleanup.isError && <Alert severity="error">{describeError(cleanup.error)}</Alert>}
          <TextField
            type="datetime-local"
            label={t('cleanup.before')}
            value={cutoff.value}
            onChange={(event) => cutoff.setValue(event.target.value)}
            error={Boolean(cutoff.error)}
            helperText={cutoff.error || t('cleanup.beforeHint')}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1, 'data-testid': 'log-cleanup-time' } }}
          />
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            {PRESETS.map((preset) => (
              <Chip
                key={preset.id}
                size="small"
                variant="outlined"
                clickable
                label={t(`cleanup.presets.${preset.id}`)}
                onClick={() => cutoff.setAge(preset.age)}
                data-testid={`log-cleanup-preset-${preset.id}`}
              />
            ))}
          </Stack>
          <Alert severity="warning" variant="outlined">
            {t('cleanup.warning')}
          </Alert>
        </Stack>
      </DialogContent>
      <ConfirmActions
        cancelLabel={t('cleanup.cancel')}
        confirmLabel={t('cleanup.confirm')}
        busy={cleanup.isPending}
        onCancel={onClose}
        onConfirm={confirm}
        confirmTestId="log-cleanup-confirm"
      />
    </>
  );
}

/** Administrators delete consume logs older than a chosen time (the other kinds are kept as an audit trail). */
export function CleanupDialog({ open, session, onClose }: { open: boolean; session: number; onClose(): void }) {
  const { t } = useTranslation('log');
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth data-testid="log-cleanup-dialog">
      <DialogTitle>{t('cleanup.title')}</DialogTitle>
      <CleanupForm key={session} onClose={onClose} />
    </Dialog>
  );
}
