import Stack from '@mui/material/Stack';
import type { PriceView } from '@one-hub/contracts';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm } from '../../components/FormDialog.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { SuggestField } from '../../components/form/SuggestField.js';
import { useFormState } from '../../hooks/useFormState.js';
import { describeError } from '../../lib/notify.js';
import { FormSection, PriceFields } from './PriceFields.js';
import {
  emptyPriceFields,
  type PriceFieldValues,
  type PriceFormField,
  type PriceFormValues,
  priceToFields,
  serverErrorField,
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
  const form = useFormState<PriceFormValues, PriceFormField>(() => ({
    model: price?.model ?? model ?? '',
    ...(price ? priceToFields(price) : emptyPriceFields()),
  }));
  const { values, errors, change } = form;
  const models = useModelList();
  const save = useSavePrice();
  const saving = save.isPending;
  const suggestions = (models.data ?? []).filter((model) => !taken.has(model));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.accept(validatePriceForm(values, taken, price?.model ?? null, (key, options) => t(key, options)));
    if (!body) return;
    save.mutate(
      { original: price?.model ?? null, body },
      {
        onSuccess: (saved) => onSaved(saved, price === null),
        onError: (error) => {
          // A model priced meanwhile by someone else: show it where the name is typed.
          if (serverErrorField(describeError(error)) === 'model') {
            form.setErrors((current) => ({
              ...current,
              model: t('form.errors.modelTaken', { model: values.model.trim() }),
            }));
            save.reset();
          }
        },
      },
    );
  };

  return (
    <DialogForm
      onSubmit={submit}
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
        <FormProblem error={save.error} unplaced={form.unplaced} testId="pricing-form-error" />
        <FormSection title={t('form.modelSection')}>
          <SuggestField
            name="model"
            value={values.model}
            onChange={(model) => change('model', model)}
            suggestions={suggestions}
            label={t('form.model')}
            error={errors.model}
            hint={t('form.modelHint')}
            disabled={saving}
            required
            autoFocus
            testId="pricing-form-model"
          />
        </FormSection>
        <PriceFields
          values={values}
          errors={errors}
          change={change as <Key extends keyof PriceFieldValues>(field: Key, value: PriceFieldValues[Key]) => void}
          disabled={saving}
          owners={owners}
        />
      </Stack>
    </DialogForm>
  );
}

/** Add or edit one model's price; `session` changes on every opening so the form starts afresh. */
export const PriceFormDialog = sessionFormDialog(PriceForm, { testId: 'pricing-dialog' });
