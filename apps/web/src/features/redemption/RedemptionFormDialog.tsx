import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import {
  type CreateRedemptionBody,
  REDEMPTION_BATCH_MAX,
  REDEMPTION_NAME_MAX_LENGTH,
  RedemptionStatus,
  type RedemptionView,
  type UpdateRedemptionBody,
} from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { useCheckedForm } from '../../components/form/checkedForm.js';
import { dialogButtons } from '../../components/form/dialogButtons.js';
import { FormTextField } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { useWords } from '../../i18n/useWords.js';
import { notify } from '../../lib/notify.js';
import type { CreatedBatch } from './codesExport.js';
import { useCreateRedemptions, useUpdateRedemption } from './redemption.api.js';
import {
  emptyRedemptionForm,
  inputToQuota,
  type QuotaUnit,
  type RedemptionFormValues,
  redemptionToForm,
  validateRedemptionForm,
} from './redemptionForm.js';

interface RedemptionFormDialogProps {
  /** The code to edit; null to create a batch. */
  code: RedemptionView | null;
  onClose(): void;
  /** After a batch was created, with the new codes (the only answer that lists them together). */
  onCreated(batch: CreatedBatch): void;
}

function useQuotaUnit(): QuotaUnit {
  const { quota_per_unit: quotaPerUnit, display_in_currency: displayInCurrency } = useSiteInfo();
  return useMemo(
    () => ({ quotaPerUnit: quotaPerUnit || 500_000, displayInCurrency }),
    [quotaPerUnit, displayInCurrency],
  );
}

/** Under the amount: what it comes to in the other unit, so a slip of a few zeros shows. */
function useQuotaHint(text: string, unit: QuotaUnit): string {
  const { t } = useTranslation('redemption');
  const format = useQuotaFormatter();
  const quota = inputToQuota(text, unit);
  if (!Number.isFinite(quota) || quota < 0) return unit.displayInCurrency ? t('form.amountHint') : t('form.quotaHint');
  return unit.displayInCurrency
    ? t('form.amountEquals', { quota: quota.toLocaleString() })
    : t('form.quotaEquals', { amount: format(quota) });
}

function RedemptionForm({ code, onClose, onCreated }: RedemptionFormDialogProps) {
  const { t } = useTranslation('redemption');
  const buttons = useWords('redemption', 'formDialog');
  const unit = useQuotaUnit();
  const [initial] = useState<RedemptionFormValues>(() =>
    code ? redemptionToForm(code, unit) : emptyRedemptionForm(unit),
  );
  const form = useCheckedForm(initial, (values) =>
    validateRedemptionForm(values, { code, initialQuota: initial.quota }, unit, (key, options) => t(key, options)),
  );
  const [name, quota] = form.watch(['name', 'quota']);
  const create = useCreateRedemptions();
  const update = useUpdateRedemption();
  const saving = create.isPending || update.isPending;
  const failure = create.error ?? update.error;
  const redeemed = code?.status === RedemptionStatus.redeemed;
  const quotaHint = useQuotaHint(quota, unit);

  const submit = (checked: CreateRedemptionBody | UpdateRedemptionBody) => {
    if ('id' in checked) {
      update.mutate(checked, {
        onSuccess: () => {
          notify.success(t('notify.saved'));
          onClose();
        },
      });
      return;
    }
    const body: CreateRedemptionBody = checked;
    create.mutate(body, { onSuccess: (keys) => onCreated({ keys, name: body.name, quota: body.quota }) });
  };

  return (
    <CheckedDialogForm
      form={form}
      onValid={submit}
      title={code ? t('form.editTitle', { id: code.id }) : t('form.createTitle')}
      onCancel={onClose}
      saving={saving}
      {...dialogButtons('redemption-form', !code, buttons)}
    >
      <Stack spacing={2.5}>
        <FormProblem error={failure} testId="redemption-form-error" />
        <FormTextField<RedemptionFormValues>
          name="name"
          label={t('form.name')}
          hint={t('form.nameHint', { length: name.trim().length, max: REDEMPTION_NAME_MAX_LENGTH })}
          autoFocus
          required
          slotProps={{ htmlInput: { 'data-testid': 'redemption-form-name' } }}
        />
        <FormTextField<RedemptionFormValues>
          name="quota"
          type="number"
          label={unit.displayInCurrency ? t('form.amount') : t('form.quota')}
          hint={redeemed ? t('form.redeemedQuota') : quotaHint}
          disabled={redeemed}
          required
          slotProps={{
            input: unit.displayInCurrency
              ? { startAdornment: <InputAdornment position="start">$</InputAdornment> }
              : {},
            htmlInput: {
              min: 0,
              step: unit.displayInCurrency ? 0.01 : 1,
              inputMode: 'decimal',
              'data-testid': 'redemption-form-quota',
            },
          }}
        />
        {!code && (
          <FormTextField<RedemptionFormValues>
            name="count"
            type="number"
            label={t('form.count')}
            hint={t('form.countHint', { max: REDEMPTION_BATCH_MAX })}
            required
            slotProps={{
              htmlInput: { min: 1, max: REDEMPTION_BATCH_MAX, step: 1, 'data-testid': 'redemption-form-count' },
            }}
          />
        )}
      </Stack>
    </CheckedDialogForm>
  );
}

/**
 * Create a batch of codes or edit one code; the fields are checked with the server's schema first.
 * `session` changes on every opening, so the form starts afresh; it stays mounted while closing.
 */
export const RedemptionFormDialog = sessionFormDialog(RedemptionForm, { testId: 'redemption-dialog', maxWidth: 'xs' });
