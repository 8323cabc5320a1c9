import Stack from '@mui/material/Stack';
import type { PriceView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { useCheckedForm } from '../../components/form/checkedForm.js';
import { FormSuggestField, useFormBinding } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { isApiError } from '../../lib/api.js';
import { FormSection, PriceFields } from './PriceFields.js';
import {
  emptyPriceFields,
  type PriceFieldValues,
  type PriceFormValues,
  priceToFields,
  validatePriceForm,
} from './priceForm.js';
import type { OwnerOption } from './priceTable.js';
import { useModelList, useSavePrice } from './pricing.api.js';

interface PriceFormProps {
  /** The price to edit; null to add one. */
  price: PriceView | null;
  /** The name a new price starts with (a served model the price list flags as unpriced). */
  model?: string;
  /** Every stored model, for the uniqueness check. */
  taken: ReadonlySet<string>;
  owners: readonly OwnerOption[];
  onClose(): void;
  onSaved(price: PriceView, created: boolean): void;
}

function PriceForm({ price, model, taken, owners, onClose, onSaved }: PriceFormProps) {
  const { t } = useTranslation('pricing');
  const form = useCheckedForm(
    (): PriceFormValues => ({
      model: price?.model ?? model ?? '',
      ...(price ? priceToFields(price) : emptyPriceFields()),
    }),
    (values) => validatePriceForm(values, taken, price?.model ?? null, (key, options) => t(key, options)),
  );
  const models = useModelList();
  const save = useSavePrice();
  const saving = save.isPending;
  const binding = useFormBinding(form, saving);
  const suggestions = (models.data ?? []).filter((model) => !taken.has(model));

  return (
    <CheckedDialogForm
      form={form}
      onValid={(body) =>
        save.mutate(
          { original: price?.model ?? null, body },
          {
            onSuccess: (saved) => onSaved(saved, price === null),
            onError: (error) => {
              // A model priced meanwhile by someone else: show it where the name is typed.
              if (isApiError(error) && error.field === 'model') {
                form.setError('model', {
                  type: 'server',
                  message: t('form.errors.modelTaken', { model: form.getValues('model').trim() }),
                });
                save.reset();
              }
            },
          },
        )
      }
      testId="pricing-form"
      title={price ? t('form.editTitle', { model: price.model }) : t('form.createTitle')}
      onCancel={onClose}
      saving={saving}
      cancelLabel={t('cancel')}
      submitLabel={price ? t('save') : t('create')}
      cancelTestId="pricing-form-cancel"
      submitTestId="pricing-form-submit"
    >
      <Stack spacing={3}>
        <FormProblem error={save.error} testId="pricing-form-error" />
        <FormSection title={t('form.modelSection')}>
          <FormSuggestField<PriceFormValues>
            name="model"
            suggestions={suggestions}
            label={t('form.model')}
            hint={t('form.modelHint')}
            required
            autoFocus
            testId="pricing-form-model"
          />
        </FormSection>
        <PriceFields
          {...binding}
          change={
            binding.change as <Key extends keyof PriceFieldValues>(field: Key, value: PriceFieldValues[Key]) => void
          }
          owners={owners}
        />
      </Stack>
    </CheckedDialogForm>
  );
}

/** Add or edit one model's price; `session` changes on every opening so the form starts afresh. */
export const PriceFormDialog = sessionFormDialog(PriceForm, { testId: 'pricing-dialog' });
