import Collapse from '@mui/material/Collapse';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BALANCING_STRATEGIES, type UserGroupView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { BudgetsEditor } from '../../components/budgets/BudgetsEditor.js';
import { FallbacksEditor } from '../../components/fallbacks/FallbacksEditor.js';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { saveWith, useCheckedForm } from '../../components/form/checkedForm.js';
import { dialogButtons } from '../../components/form/dialogButtons.js';
import { FormSwitchField, FormTextField } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { FormSection } from '../../components/form/FormSection.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { useWords } from '../../i18n/useWords.js';
import { quotaUnitOf } from '../../lib/quotaAmount.js';
import { UserGroupBudgetUse } from './UserGroupBudgetUse.js';
import { monospace } from './UserGroupCells.js';
import { useSaveUserGroup } from './userGroup.api.js';
import {
  emptyUserGroupForm,
  formFieldOf,
  GROUP_NAME_MAX_LENGTH,
  SYMBOL_MAX_LENGTH,
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
  const buttons = useWords('userGroup', 'formDialog');
  // Budget money is typed in the unit of every quota field: US$ when the site shows currency.
  const unit = quotaUnitOf(useSiteInfo());
  const form = useCheckedForm(
    () => (group ? userGroupToForm(group, unit) : emptyUserGroupForm()),
    (values) => validateUserGroupForm(values, group?.id ?? null, (key, options) => t(key, options), unit),
  );
  const promotion = form.watch('promotion');
  const save = useSaveUserGroup();
  const saving = save.isPending;
  const creating = group === null;

  const numberProps = (testId: string, step: string) => ({
    htmlInput: { inputMode: 'decimal' as const, min: 0, step, 'data-testid': testId },
  });
  return (
    <CheckedDialogForm
      form={form}
      onValid={saveWith(form, save, formFieldOf, (saved) => onSaved(saved, creating))}
      title={creating ? t('form.createTitle') : t('form.editTitle', { name: group.name })}
      onCancel={onClose}
      saving={saving}
      {...dialogButtons('user-group-form', creating, buttons)}
    >
      <Stack spacing={3}>
        <FormProblem testId="user-group-form-error" />
        <FormSection title={t('form.identitySection')}>
          <FormTextField<UserGroupFormValues>
            name="symbol"
            label={t('form.symbol')}
            hint={creating ? t('form.symbolHint', { max: SYMBOL_MAX_LENGTH }) : t('form.symbolFixed')}
            required={creating}
            autoFocus={creating}
            autoComplete="off"
            slotProps={{
              input: { readOnly: !creating, sx: { fontFamily: monospace } },
              htmlInput: { 'data-testid': 'user-group-form-symbol', 'aria-readonly': !creating },
            }}
            sx={creating ? undefined : { '& .MuiInputBase-root': { bgcolor: 'action.hover' } }}
          />
          <FormTextField<UserGroupFormValues>
            name="name"
            label={t('form.name')}
            hint={t('form.nameHint', { max: GROUP_NAME_MAX_LENGTH })}
            required
            autoFocus={!creating}
            slotProps={{ htmlInput: { 'data-testid': 'user-group-form-name' } }}
          />
        </FormSection>
        <FormSection title={t('form.limitsSection')}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField<UserGroupFormValues>
              fullWidth
              name="ratio"
              type="number"
              label={t('form.ratio')}
              hint={t('form.ratioHint')}
              required
              slotProps={{
                ...numberProps('user-group-form-ratio', '0.01'),
                input: { startAdornment: <InputAdornment position="start">×</InputAdornment> },
              }}
            />
            <FormTextField<UserGroupFormValues>
              fullWidth
              name="apiRate"
              type="number"
              label={t('form.apiRate')}
              hint={t('form.apiRateHint')}
              required
              slotProps={{
                ...numberProps('user-group-form-api-rate', '1'),
                input: { endAdornment: <InputAdornment position="end">{t('form.rpm')}</InputAdornment> },
              }}
            />
            <FormTextField<UserGroupFormValues>
              fullWidth
              name="tpm"
              type="number"
              label={t('form.tpm')}
              hint={t('form.tpmHint')}
              slotProps={numberProps('user-group-form-tpm', '1')}
            />
          </Stack>
          <FormTextField<UserGroupFormValues>
            fullWidth
            select
            name="routingStrategy"
            label={t('form.routingStrategy')}
            hint={t('form.routingStrategyHint')}
            slotProps={{ htmlInput: { 'data-testid': 'user-group-form-routing-strategy' } }}
          >
            {BALANCING_STRATEGIES.map((strategy) => (
              <MenuItem key={strategy} value={strategy} data-testid={`user-group-form-strategy-${strategy}`}>
                {t(`form.strategies.${strategy}`)}
              </MenuItem>
            ))}
          </FormTextField>
          <FormSwitchField<UserGroupFormValues>
            label={t('form.public')}
            description={t('form.publicHint')}
            name="public"
            testId="user-group-form-public"
          />
        </FormSection>
        <FormSection title={t('budget:section')}>
          <BudgetsEditor testId="user-group-form-budgets" hint={t('budget:hints.group')} />
          <UserGroupBudgetUse groupId={group?.id ?? null} />
        </FormSection>
        <FormSection title={t('form.routingSection')}>
          <FormSwitchField<UserGroupFormValues>
            label={t('form.cacheAffinity')}
            description={t('form.cacheAffinityHint')}
            name="cacheAffinity"
            testId="user-group-form-cache-affinity"
          />
          <Typography variant="subtitle2">{t('fallback:section')}</Typography>
          <FallbacksEditor testId="user-group-form-fallbacks" hint={t('fallback:hints.group')} />
        </FormSection>
        <FormSection title={t('form.promotionSection')}>
          <FormSwitchField<UserGroupFormValues>
            label={t('form.promotion')}
            description={t('form.promotionHint')}
            name="promotion"
            // Switching the promotion hides or shows its bounds, so their messages go too.
            clears={['min', 'max']}
            testId="user-group-form-promotion"
          />
          <Collapse in={promotion} unmountOnExit>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ pt: 0.5 }}>
              <FormTextField<UserGroupFormValues>
                fullWidth
                name="min"
                type="number"
                label={t('form.min')}
                hint={t('form.minHint')}
                slotProps={{
                  ...numberProps('user-group-form-min', '1'),
                  input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
                }}
              />
              <FormTextField<UserGroupFormValues>
                fullWidth
                name="max"
                type="number"
                label={t('form.max')}
                hint={t('form.maxHint')}
                slotProps={{
                  ...numberProps('user-group-form-max', '1'),
                  input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
                }}
              />
            </Stack>
          </Collapse>
        </FormSection>
      </Stack>
    </CheckedDialogForm>
  );
}

/** Create or edit a user group; the symbol is fixed once the group exists. */
export const UserGroupFormDialog = sessionFormDialog(UserGroupForm, { testId: 'user-group-dialog' });
