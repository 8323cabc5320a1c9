import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type OwnedByView, RESERVED_OWNER_ID_MAX } from '@one-hub/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../lib/notify.js';
import { type OwnerFormField, type OwnerFormValues, ownerToForm, validateOwnerForm } from './metadataForm.js';
import { OwnerAvatar } from './PriceParts.js';
import { useSaveOwner } from './pricing.api.js';

/** A URL scheme, the same in every language. */
const URL_PLACEHOLDER = 'https://';

interface OwnerFormProps {
  owner: OwnedByView | null;
  takenIds: ReadonlySet<number>;
  onClose(): void;
  onSaved(owner: OwnedByView, created: boolean): void;
}

function OwnerForm({ owner, takenIds, onClose, onSaved }: OwnerFormProps) {
  const { t } = useTranslation('pricing');
  const [values, setValues] = useState<OwnerFormValues>(() => ownerToForm(owner));
  const [errors, setErrors] = useState<Partial<Record<OwnerFormField, string>>>({});
  const [unplaced, setUnplaced] = useState<string[]>([]);
  const save = useSaveOwner();
  const saving = save.isPending;
  const editing = owner !== null;

  const change = (field: OwnerFormField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateOwnerForm(values, editing, takenIds, (key, options) => t(key, options));
    if (!result.ok) {
      setErrors(result.errors);
      setUnplaced(result.unplaced);
      return;
    }
    setUnplaced([]);
    save.mutate({ editing, body: result.body }, { onSuccess: (saved) => onSaved(saved, !editing) });
  };

  return (
    <Box component="form" noValidate onSubmit={submit} data-testid="pricing-owner-form">
      <DialogTitle>{editing ? t('owners.editTitle', { name: owner.name }) : t('owners.createTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2.5}>
          {(save.isError || unplaced.length > 0) && (
            <Alert severity="error" data-testid="pricing-owner-form-error">
              {save.isError ? describeError(save.error) : unplaced.join(' ')}
            </Alert>
          )}
          <TextField
            label={t('owners.id')}
            type="number"
            value={values.id}
            onChange={(event) => change('id', event.target.value)}
            disabled={saving || editing}
            error={Boolean(errors.id)}
            helperText={errors.id ?? t('owners.idHint', { min: RESERVED_OWNER_ID_MAX + 1 })}
            slotProps={{
              htmlInput: { min: RESERVED_OWNER_ID_MAX + 1, 'data-testid': 'pricing-owner-form-id' },
              formHelperText: { 'data-testid': 'pricing-owner-form-id-helper' } as object,
            }}
          />
          <TextField
            label={t('owners.name')}
            value={values.name}
            onChange={(event) => change('name', event.target.value)}
            disabled={saving}
            required
            autoFocus
            error={Boolean(errors.name)}
            helperText={errors.name ?? ' '}
            slotProps={{
              htmlInput: { 'data-testid': 'pricing-owner-form-name' },
              formHelperText: { 'data-testid': 'pricing-owner-form-name-helper' } as object,
            }}
          />
          <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
            <TextField
              label={t('owners.icon')}
              value={values.icon}
              onChange={(event) => change('icon', event.target.value)}
              disabled={saving}
              fullWidth
              placeholder={URL_PLACEHOLDER}
              error={Boolean(errors.icon)}
              helperText={errors.icon ?? t('owners.iconHint')}
              slotProps={{
                htmlInput: { 'data-testid': 'pricing-owner-form-icon' },
                formHelperText: { 'data-testid': 'pricing-owner-form-icon-helper' } as object,
              }}
            />
            <Stack spacing={0.5} sx={{ alignItems: 'center', pt: 1 }}>
              <OwnerAvatar name={values.name || '?'} icon={errors.icon ? '' : values.icon.trim()} size={40} />
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                {t('owners.preview')}
              </Typography>
            </Stack>
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} disabled={saving} color="inherit" data-testid="pricing-owner-form-cancel">
          {t('cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={saving} data-testid="pricing-owner-form-submit">
          {editing ? t('save') : t('add')}
        </Button>
      </DialogActions>
    </Box>
  );
}

/** Add or edit a custom model owner (ids above 1000). */
export function OwnerFormDialog({
  open,
  session,
  ...props
}: OwnerFormProps & { open: boolean; session: number | null }) {
  return (
    <Dialog open={open} onClose={props.onClose} fullWidth maxWidth="xs" data-testid="pricing-owner-dialog">
      {session !== null && <OwnerForm key={session} {...props} />}
    </Dialog>
  );
}
