import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type OwnedByView, RESERVED_OWNER_ID_MAX } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { useCheckedForm } from '../../components/form/checkedForm.js';
import { FormTextField } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { testIdSlots } from '../../components/form/fieldBinding.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { type OwnerFormValues, ownerToForm, validateOwnerForm } from './metadataForm.js';
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
  const editing = owner !== null;
  const form = useCheckedForm(
    () => ownerToForm(owner),
    (values) => validateOwnerForm(values, editing, takenIds, (key, options) => t(key, options)),
  );
  const [name, icon] = form.watch(['name', 'icon']);
  const iconRefused = Boolean(form.formState.errors.icon);
  const save = useSaveOwner();
  const saving = save.isPending;

  return (
    <CheckedDialogForm
      form={form}
      onValid={(body) => save.mutate({ editing, body }, { onSuccess: (saved) => onSaved(saved, !editing) })}
      testId="pricing-owner-form"
      title={editing ? t('owners.editTitle', { name: owner.name }) : t('owners.createTitle')}
      onCancel={onClose}
      saving={saving}
      cancelLabel={t('cancel')}
      submitLabel={editing ? t('save') : t('add')}
      cancelTestId="pricing-owner-form-cancel"
      submitTestId="pricing-owner-form-submit"
    >
      <Stack spacing={2.5}>
        <FormProblem error={save.error} testId="pricing-owner-form-error" />
        <FormTextField<OwnerFormValues>
          name="id"
          label={t('owners.id')}
          type="number"
          hint={t('owners.idHint', { min: RESERVED_OWNER_ID_MAX + 1 })}
          disabled={editing}
          slotProps={{
            htmlInput: { min: RESERVED_OWNER_ID_MAX + 1, 'data-testid': 'pricing-owner-form-id' },
            formHelperText: { 'data-testid': 'pricing-owner-form-id-helper' } as object,
          }}
        />
        <FormTextField<OwnerFormValues>
          name="name"
          label={t('owners.name')}
          hint=" "
          required
          autoFocus
          slotProps={testIdSlots('pricing-owner-form-name', 'pricing-owner-form-name-helper')}
        />
        <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
          <FormTextField<OwnerFormValues>
            name="icon"
            label={t('owners.icon')}
            hint={t('owners.iconHint')}
            fullWidth
            placeholder={URL_PLACEHOLDER}
            slotProps={testIdSlots('pricing-owner-form-icon', 'pricing-owner-form-icon-helper')}
          />
          <Stack spacing={0.5} sx={{ alignItems: 'center', pt: 1 }}>
            <OwnerAvatar name={name || '?'} icon={iconRefused ? '' : icon.trim()} size={40} />
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {t('owners.preview')}
            </Typography>
          </Stack>
        </Stack>
      </Stack>
    </CheckedDialogForm>
  );
}

/** Add or edit a custom model owner (ids above 1000). */
export const OwnerFormDialog = sessionFormDialog(OwnerForm, { testId: 'pricing-owner-dialog', maxWidth: 'xs' });
