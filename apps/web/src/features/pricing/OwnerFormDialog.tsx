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
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormProblem } from '../../components/form/FormProblem.js';
import { bindTextFields, testIdSlots } from '../../components/form/fieldBinding.js';
import { useFormState } from '../../hooks/useFormState.js';
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
  const form = useFormState<OwnerFormValues, OwnerFormField>(() => ownerToForm(owner));
  const { values, errors } = form;
  const save = useSaveOwner();
  const saving = save.isPending;
  const editing = owner !== null;
  const bind = bindTextFields({ ...form, disabled: saving });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.accept(validateOwnerForm(values, editing, takenIds, (key, options) => t(key, options)));
    if (body) save.mutate({ editing, body }, { onSuccess: (saved) => onSaved(saved, !editing) });
  };

  return (
    <Box component="form" noValidate onSubmit={submit} data-testid="pricing-owner-form">
      <DialogTitle>{editing ? t('owners.editTitle', { name: owner.name }) : t('owners.createTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2.5}>
          <FormProblem error={save.error} unplaced={form.unplaced} testId="pricing-owner-form-error" />
          <TextField
            label={t('owners.id')}
            type="number"
            {...bind('id', t('owners.idHint', { min: RESERVED_OWNER_ID_MAX + 1 }))}
            disabled={saving || editing}
            slotProps={{
              htmlInput: { min: RESERVED_OWNER_ID_MAX + 1, 'data-testid': 'pricing-owner-form-id' },
              formHelperText: { 'data-testid': 'pricing-owner-form-id-helper' } as object,
            }}
          />
          <TextField
            label={t('owners.name')}
            {...bind('name', ' ')}
            required
            autoFocus
            slotProps={testIdSlots('pricing-owner-form-name', 'pricing-owner-form-name-helper')}
          />
          <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
            <TextField
              label={t('owners.icon')}
              {...bind('icon', t('owners.iconHint'))}
              fullWidth
              placeholder={URL_PLACEHOLDER}
              slotProps={testIdSlots('pricing-owner-form-icon', 'pricing-owner-form-icon-helper')}
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
