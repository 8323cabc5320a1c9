import Alert from '@mui/material/Alert';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  type CreateRedemptionBody,
  REDEMPTION_BATCH_MAX,
  REDEMPTION_NAME_MAX_LENGTH,
  RedemptionStatus,
  type RedemptionView,
} from '@one-hub/contracts';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm, FormDialog } from '../../components/FormDialog.js';
import { useQuotaFormatter } from '../../hooks/useQuotaFormatter.js';
import { useSiteInfo } from '../../hooks/useSiteInfo.js';
import { describeError, notify } from '../../lib/notify.js';
import type { CreatedBatch } from './codesExport.js';
import { useCreateRedemptions, useUpdateRedemption } from './redemption.api.js';
import {
  emptyRedemptionForm,
  inputToQuota,
  type QuotaUnit,
  type RedemptionFormErrors,
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
  const unit = useQuotaUnit();
  const [initial] = useState<RedemptionFormValues>(() =>
    code ? redemptionToForm(code, unit) : emptyRedemptionForm(unit),
  );
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<RedemptionFormErrors>({});
  const [unplaced, setUnplaced] = useState<string[]>([]);
  const create = useCreateRedemptions();
  const update = useUpdateRedemption();
  const saving = create.isPending || update.isPending;
  const failure = create.error ?? update.error;
  const redeemed = code?.status === RedemptionStatus.redeemed;
  const quotaHint = useQuotaHint(values.quota, unit);

  const change = (field: keyof RedemptionFormValues, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateRedemptionForm(values, { code, initialQuota: initial.quota }, unit, (key, options) =>
      t(key, options),
    );
    if (!result.ok) {
      setErrors(result.errors);
      setUnplaced(result.unplaced);
      return;
    }
    setUnplaced([]);
    if ('id' in result.body) {
      update.mutate(result.body, {
        onSuccess: () => {
          notify.success(t('notify.saved'));
          onClose();
        },
      });
      return;
    }
    const body: CreateRedemptionBody = result.body;
    create.mutate(body, { onSuccess: (keys) => onCreated({ keys, name: body.name, quota: body.quota }) });
  };

  return (
    <DialogForm
      onSubmit={submit}
      testId="redemption-form"
      title={code ? t('form.editTitle', { id: code.id }) : t('form.createTitle')}
      onCancel={onClose}
      saving={saving}
      cancelLabel={t('form.cancel')}
      submitLabel={code ? t('form.save') : t('form.create')}
      cancelTestId="redemption-form-cancel"
      submitTestId="redemption-form-submit"
    >
      <Stack spacing={2.5}>
        {(failure || unplaced.length > 0) && (
          <Alert severity="error" data-testid="redemption-form-error">
            {failure ? describeError(failure) : unplaced.join(' ')}
          </Alert>
        )}
        <TextField
          name="name"
          label={t('form.name')}
          value={values.name}
          onChange={(event) => change('name', event.target.value)}
          error={Boolean(errors.name)}
          helperText={
            errors.name ?? t('form.nameHint', { length: values.name.trim().length, max: REDEMPTION_NAME_MAX_LENGTH })
          }
          disabled={saving}
          autoFocus
          required
          slotProps={{ htmlInput: { 'data-testid': 'redemption-form-name' } }}
        />
        <TextField
          name="quota"
          type="number"
          label={unit.displayInCurrency ? t('form.amount') : t('form.quota')}
          value={values.quota}
          onChange={(event) => change('quota', event.target.value)}
          error={Boolean(errors.quota)}
          helperText={errors.quota ?? (redeemed ? t('form.redeemedQuota') : quotaHint)}
          disabled={saving || redeemed}
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
          <TextField
            name="count"
            type="number"
            label={t('form.count')}
            value={values.count}
            onChange={(event) => change('count', event.target.value)}
            error={Boolean(errors.count)}
            helperText={errors.count ?? t('form.countHint', { max: REDEMPTION_BATCH_MAX })}
            disabled={saving}
            required
            slotProps={{
              htmlInput: { min: 1, max: REDEMPTION_BATCH_MAX, step: 1, 'data-testid': 'redemption-form-count' },
            }}
          />
        )}
      </Stack>
    </DialogForm>
  );
}

/**
 * Create a batch of codes or edit one code; the fields are checked with the server's schema first.
 * `session` changes on every opening, so the form starts afresh; it stays mounted while closing.
 */
export function RedemptionFormDialog({
  open,
  session,
  ...props
}: RedemptionFormDialogProps & { open: boolean; session: number | null }) {
  return (
    <FormDialog open={open} onClose={props.onClose} maxWidth="xs" testId="redemption-dialog">
      {session !== null && <RedemptionForm key={session} {...props} />}
    </FormDialog>
  );
}
