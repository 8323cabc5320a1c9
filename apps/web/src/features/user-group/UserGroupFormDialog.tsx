import Collapse from '@mui/material/Collapse';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { UserGroupView } from '@one-hub/contracts';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm } from '../../components/FormDialog.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { FormSection } from '../../components/form/FormSection.js';
import { bindSwitchFields, bindTextFields } from '../../components/form/fieldBinding.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { SwitchField } from '../../components/form/SwitchField.js';
import { useFormState } from '../../hooks/useFormState.js';
import { describeError } from '../../lib/notify.js';
import { monospace } from './UserGroupCells.js';
import { useSaveUserGroup } from './userGroup.api.js';
import {
  emptyUserGroupForm,
  fieldOfServerMessage,
  GROUP_NAME_MAX_LENGTH,
  SYMBOL_MAX_LENGTH,
  type UserGroupFormField,
  type UserGroupFormValues,
  userGroupToForm,
  validateUserGroupForm,
} from './userGroupForm.js';

interface UserGroupFormDialogProps {
  /** The group to edit; null to create one. */
  group: UserGroupView | null;
  onClose(): void;
  onSaved(group: UserGroupView, created: boolean): void;
}

function UserGroupForm({ group, onClose, onSaved }: UserGroupFormDialogProps) {
  const { t } = useTranslation('userGroup');
  const form = useFormState<UserGroupFormValues, UserGroupFormField>(
    () => (group ? userGroupToForm(group) : emptyUserGroupForm()),
    // Switching the promotion hides or shows its bounds, so their messages go too.
    (field) => (field === 'promotion' ? [field, 'min', 'max'] : [field]),
  );
  const { values } = form;
  const save = useSaveUserGroup();
  const saving = save.isPending;
  const creating = group === null;
  const bind = bindTextFields({ ...form, disabled: saving });
  const switchOf = bindSwitchFields({ ...form, disabled: saving });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.accept(validateUserGroupForm(values, group?.id ?? null, (key, options) => t(key, options)));
    if (!body) return;
    save.mutate(body, {
      onSuccess: (saved) => onSaved(saved, creating),
      onError: (error) => {
        const field = fieldOfServerMessage(error instanceof Error ? error.message : '');
        if (field) form.setErrors((current) => ({ ...current, [field]: describeError(error) }));
        else form.setUnplaced([describeError(error)]);
      },
    });
  };

  const numberProps = (testId: string, step: string) => ({
    htmlInput: { inputMode: 'decimal' as const, min: 0, step, 'data-testid': testId },
  });
  return (
    <DialogForm
      onSubmit={submit}
      testId="user-group-form"
      title={creating ? t('form.createTitle') : t('form.editTitle', { name: group.name })}
      onCancel={onClose}
      saving={saving}
      cancelLabel={t('form.cancel')}
      submitLabel={creating ? t('form.create') : t('form.save')}
      cancelTestId="user-group-form-cancel"
      submitTestId="user-group-form-submit"
    >
      <Stack spacing={3}>
        <FormProblem unplaced={form.unplaced} testId="user-group-form-error" />
        <FormSection title={t('form.identitySection')}>
          <TextField
            name="symbol"
            label={t('form.symbol')}
            {...bind('symbol', creating ? t('form.symbolHint', { max: SYMBOL_MAX_LENGTH }) : t('form.symbolFixed'))}
            required={creating}
            autoFocus={creating}
            autoComplete="off"
            slotProps={{
              input: { readOnly: !creating, sx: { fontFamily: monospace } },
              htmlInput: { 'data-testid': 'user-group-form-symbol', 'aria-readonly': !creating },
            }}
            sx={creating ? undefined : { '& .MuiInputBase-root': { bgcolor: 'action.hover' } }}
          />
          <TextField
            name="name"
            label={t('form.name')}
            {...bind('name', t('form.nameHint', { max: GROUP_NAME_MAX_LENGTH }))}
            required
            autoFocus={!creating}
            slotProps={{ htmlInput: { 'data-testid': 'user-group-form-name' } }}
          />
        </FormSection>
        <FormSection title={t('form.limitsSection')}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              fullWidth
              name="ratio"
              type="number"
              label={t('form.ratio')}
              {...bind('ratio', t('form.ratioHint'))}
              required
              slotProps={{
                ...numberProps('user-group-form-ratio', '0.01'),
                input: { startAdornment: <InputAdornment position="start">×</InputAdornment> },
              }}
            />
            <TextField
              fullWidth
              name="api_rate"
              type="number"
              label={t('form.apiRate')}
              {...bind('apiRate', t('form.apiRateHint'))}
              required
              slotProps={{
                ...numberProps('user-group-form-api-rate', '1'),
                input: { endAdornment: <InputAdornment position="end">{t('form.rpm')}</InputAdornment> },
              }}
            />
          </Stack>
          <SwitchField
            label={t('form.public')}
            description={t('form.publicHint')}
            {...switchOf('public', 'user-group-form-public')}
          />
        </FormSection>
        <FormSection title={t('form.promotionSection')}>
          <SwitchField
            label={t('form.promotion')}
            description={t('form.promotionHint')}
            {...switchOf('promotion', 'user-group-form-promotion')}
          />
          <Collapse in={values.promotion} unmountOnExit>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ pt: 0.5 }}>
              <TextField
                fullWidth
                name="min"
                type="number"
                label={t('form.min')}
                {...bind('min', t('form.minHint'))}
                slotProps={{
                  ...numberProps('user-group-form-min', '1'),
                  input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
                }}
              />
              <TextField
                fullWidth
                name="max"
                type="number"
                label={t('form.max')}
                {...bind('max', t('form.maxHint'))}
                slotProps={{
                  ...numberProps('user-group-form-max', '1'),
                  input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
                }}
              />
            </Stack>
          </Collapse>
        </FormSection>
      </Stack>
    </DialogForm>
  );
}

/** Create or edit a user group; the symbol is fixed once the group exists. */
export const UserGroupFormDialog = sessionFormDialog(UserGroupForm, { testId: 'user-group-dialog' });
