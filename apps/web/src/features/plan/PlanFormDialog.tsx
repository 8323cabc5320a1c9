import Autocomplete from '@mui/material/Autocomplete';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PAYMENT_CURRENCIES, type PlanView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { BudgetsEditor } from '../../components/budgets/BudgetsEditor.js';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { saveWith, useCheckedForm } from '../../components/form/checkedForm.js';
import { dialogButtons } from '../../components/form/dialogButtons.js';
import { FormSwitchField, FormTextField } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { FormSection } from '../../components/form/FormSection.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { useGroupName } from '../../hooks/useGroupName.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { useUserGroupMap } from '../../hooks/useUserGroupMap.js';
import { useWords } from '../../i18n/useWords.js';
import { quotaUnitOf } from '../../lib/quotaAmount.js';
import { useModelSuggestions, useSavePlan } from './plan.api.js';
import {
  emptyPlanForm,
  formFieldOf,
  PLAN_DESCRIPTION_MAX_LENGTH,
  PLAN_NAME_MAX_LENGTH,
  type PlanFormValues,
  planToForm,
  validatePlanForm,
} from './planForm.js';

interface PlanFormDialogProps {
  /** The plan to edit; null to create one. */
  plan: PlanView | null;
  onClose(): void;
  onSaved(plan: PlanView, created: boolean): void;
}

/** Splits pasted text ("a, b\nc") into model names. */
function splitModels(names: string[]): string[] {
  const models = names.flatMap((name) => name.split(/[,\n]/)).map((name) => name.trim());
  return [...new Set(models.filter(Boolean))];
}

function GroupField() {
  const { t } = useTranslation('plan');
  const groupName = useGroupName();
  const groups = Object.values(useUserGroupMap().data ?? {});
  return (
    <FormTextField<PlanFormValues>
      select
      name="group"
      label={t('form.group')}
      hint={t('form.groupHint')}
      slotProps={{
        select: { displayEmpty: true, SelectDisplayProps: { 'data-testid': 'plan-form-group' } as object },
        inputLabel: { shrink: true },
      }}
    >
      <MenuItem value="">
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('form.groupKeep')}
        </Typography>
      </MenuItem>
      {groups.map((group) => (
        <MenuItem key={group.symbol} value={group.symbol} data-testid={`plan-form-group-${group.symbol}`}>
          {groupName(group)}
        </MenuItem>
      ))}
    </FormTextField>
  );
}

function PlanForm({ plan, onClose, onSaved }: PlanFormDialogProps) {
  const { t } = useTranslation('plan');
  const buttons = useWords('plan', 'formDialog');
  const unit = quotaUnitOf(useSiteInfo());
  const form = useCheckedForm(
    () => (plan ? planToForm(plan, unit) : emptyPlanForm()),
    (values) => validatePlanForm(values, plan?.id ?? null, (key, options) => t(key, options), unit),
  );
  const save = useSavePlan();
  const saving = save.isPending;
  const creating = plan === null;
  const suggestions = useModelSuggestions();
  const models = form.watch('models');
  const modelsError = form.formState.errors.models?.message;

  return (
    <CheckedDialogForm
      form={form}
      onValid={saveWith(form, save, formFieldOf, (saved) => onSaved(saved, creating))}
      title={creating ? t('form.createTitle') : t('form.editTitle', { name: plan.name })}
      onCancel={onClose}
      saving={saving}
      {...dialogButtons('plan-form', creating, buttons)}
    >
      <Stack spacing={3}>
        <FormProblem testId="plan-form-error" />
        <FormSection title={t('form.basicSection')}>
          <FormTextField<PlanFormValues>
            name="name"
            label={t('form.name')}
            hint={t('form.nameHint', { max: PLAN_NAME_MAX_LENGTH })}
            required
            autoFocus
            slotProps={{ htmlInput: { 'data-testid': 'plan-form-name' } }}
          />
          <FormTextField<PlanFormValues>
            name="description"
            label={t('form.description')}
            hint={t('form.descriptionHint', { max: PLAN_DESCRIPTION_MAX_LENGTH })}
            multiline
            minRows={2}
            slotProps={{ htmlInput: { 'data-testid': 'plan-form-description' } }}
          />
        </FormSection>
        <FormSection title={t('form.priceSection')}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField<PlanFormValues>
              fullWidth
              name="price"
              label={t('form.price')}
              hint={t('form.priceHint')}
              required
              slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'plan-form-price' } }}
            />
            <FormTextField<PlanFormValues>
              select
              name="currency"
              label={t('form.currency')}
              sx={{ minWidth: 120 }}
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'plan-form-currency' } as object } }}
            >
              {PAYMENT_CURRENCIES.map((currency) => (
                <MenuItem key={currency} value={currency} data-testid={`plan-form-currency-${currency}`}>
                  {currency}
                </MenuItem>
              ))}
            </FormTextField>
            <FormTextField<PlanFormValues>
              fullWidth
              name="durationDays"
              type="number"
              label={t('form.duration')}
              hint={t('form.durationHint')}
              required
              slotProps={{
                htmlInput: { min: 1, step: 1, 'data-testid': 'plan-form-duration' },
                input: { endAdornment: <InputAdornment position="end">{t('form.days')}</InputAdornment> },
              }}
            />
          </Stack>
        </FormSection>
        <FormSection title={t('form.allowanceSection')}>
          <BudgetsEditor testId="plan-form-budgets" hint={t('budget:hints.plan')} />
          <FormSwitchField<PlanFormValues>
            name="fallbackToBalance"
            label={t('form.fallback')}
            description={t('form.fallbackHint')}
            testId="plan-form-fallback"
          />
        </FormSection>
        <FormSection title={t('form.accessSection')}>
          <GroupField />
          <Autocomplete
            multiple
            freeSolo
            options={suggestions.data ?? []}
            value={models}
            onChange={(_event, names) => {
              form.setValue('models', splitModels(names));
              form.clearErrors('models');
            }}
            disabled={saving}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t('form.models')}
                error={Boolean(modelsError)}
                helperText={modelsError ?? t('form.modelsHint')}
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'plan-form-models' },
                }}
              />
            )}
          />
        </FormSection>
        <FormSection title={t('form.listingSection')}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
            <FormTextField<PlanFormValues>
              name="sort"
              type="number"
              label={t('form.sort')}
              hint={t('form.sortHint')}
              slotProps={{ htmlInput: { step: 1, 'data-testid': 'plan-form-sort' } }}
            />
            <FormSwitchField<PlanFormValues>
              name="enable"
              label={t('form.enable')}
              description={t('form.enableHint')}
              testId="plan-form-enable"
            />
          </Stack>
        </FormSection>
      </Stack>
    </CheckedDialogForm>
  );
}

/** Create or edit a subscription plan. */
export const PlanFormDialog = sessionFormDialog(PlanForm, { testId: 'plan-dialog' });
