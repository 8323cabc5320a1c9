import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog as SharedConfirmDialog } from '../../components/ConfirmDialog.js';
import { useLastShown } from '../../hooks/useLastShown.js';
import { describeError, notify } from '../../lib/notify.js';
import { useBatchEdit } from './channel.api.js';

export { useLastShown } from '../../hooks/useLastShown.js';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  pending: boolean;
  onConfirm(): void;
  onClose(): void;
  testId: string;
}

/** Asks before a destructive action; the confirm button is red. */
export function ConfirmDialog({ pending, ...props }: ConfirmDialogProps) {
  const { t } = useTranslation('channel');
  return <SharedConfirmDialog {...props} busy={pending} cancelLabel={t('form.cancel')} />;
}

export type BatchKind = 'azure_api' | 'del_model';

interface BatchValueDialogProps {
  kind: BatchKind | null;
  ids: number[];
  /** Models of the selected channels, offered when removing one. */
  models: string[];
  onClose(): void;
  onDone(): void;
}

/** Sets the Azure API version of the selected channels, or removes one model from them. */
export function BatchValueDialog({ kind: current, ids, models, onClose, onDone }: BatchValueDialogProps) {
  const { t } = useTranslation('channel');
  const kind = useLastShown(current) ?? 'azure_api';
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  const batch = useBatchEdit();
  const { reset } = batch;
  // Each opening starts empty.
  useEffect(() => {
    if (!current) return;
    setValue('');
    setError('');
    reset();
  }, [current, reset]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = value.trim();
    if (!trimmed) {
      setError(t(`batch.${kind}.required`));
      return;
    }
    batch.mutate(
      { kind, ids, value: trimmed },
      {
        onSuccess: (count) => {
          notify.success(t(`batch.${kind}.done`, { count: Number(count) }));
          onDone();
        },
        onError: (failure) => setError(describeError(failure)),
      },
    );
  };

  const field =
    kind === 'del_model' ? (
      <Autocomplete
        freeSolo
        options={models}
        inputValue={value}
        onInputChange={(_event, text) => {
          setValue(text);
          setError('');
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            autoFocus
            label={t('batch.del_model.label')}
            error={Boolean(error)}
            helperText={error || t('batch.del_model.hint')}
            slotProps={{
              ...params.slotProps,
              htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'channel-batch-value' },
            }}
          />
        )}
      />
    ) : (
      <TextField
        autoFocus
        fullWidth
        label={t('batch.azure_api.label')}
        placeholder="2024-10-21"
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setError('');
        }}
        error={Boolean(error)}
        helperText={error || t('batch.azure_api.hint')}
        slotProps={{ htmlInput: { 'data-testid': 'channel-batch-value' } }}
      />
    );

  return (
    <Dialog open={current !== null} onClose={onClose} maxWidth="xs" fullWidth data-testid="channel-batch-dialog">
      <form noValidate onSubmit={submit}>
        <DialogTitle>{t(`batch.${kind}.title`)}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('batch.selectedCount', { count: ids.length })}</DialogContentText>
          {field}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} color="inherit" disabled={batch.isPending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={batch.isPending} data-testid="channel-batch-submit">
            {t('batch.apply')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
