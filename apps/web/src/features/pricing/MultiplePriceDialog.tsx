import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { PriceView, SyncPricesResult } from '@one-hub/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm } from '../../components/FormDialog.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { useFormState } from '../../hooks/useFormState.js';
import { FormSection, PriceFields } from './PriceFields.js';
import {
  emptyPriceFields,
  type MultiplePriceFormValues,
  type PriceFieldValues,
  type PriceFormField,
  priceToFields,
  validateMultiplePriceForm,
} from './priceForm.js';
import type { OwnerOption } from './priceTable.js';
import { useModelList, useSaveMultiplePrices } from './pricing.api.js';

interface MultiplePriceFormProps {
  /** The models being edited together (their price comes from the first); empty to add new ones. */
  originals: readonly PriceView[];
  taken: ReadonlySet<string>;
  owners: readonly OwnerOption[];
  onClose(): void;
  onSaved(result: SyncPricesResult): void;
}

function splitModels(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((model) => model.trim())
    .filter(Boolean);
}

function MultiplePriceForm({ originals, taken, owners, onClose, onSaved }: MultiplePriceFormProps) {
  const { t } = useTranslation('pricing');
  const form = useFormState<MultiplePriceFormValues, PriceFormField>(() => ({
    models: originals.map((price) => price.model),
    ...(originals[0] ? priceToFields(originals[0]) : emptyPriceFields()),
  }));
  const { values, errors, change } = form;
  const [pending, setPending] = useState('');
  const modelList = useModelList();
  const save = useSaveMultiplePrices();
  const saving = save.isPending;
  const originalNames = originals.map((price) => price.model);
  const suggestions = (modelList.data ?? []).filter((model) => !taken.has(model) || originalNames.includes(model));

  const addModels = (models: string[]) =>
    change('models', [...new Set([...values.models, ...models.flatMap(splitModels)])]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A name still being typed counts too.
    const current = pending.trim()
      ? { ...values, models: [...new Set([...values.models, ...splitModels(pending)])] }
      : values;
    form.setValues(current);
    setPending('');
    const body = form.accept(
      validateMultiplePriceForm(current, taken, originalNames, (key, options) => t(key, options)),
    );
    if (body) save.mutate(body, { onSuccess: onSaved });
  };
  const removed = originalNames.filter((model) => !values.models.includes(model));

  return (
    <DialogForm
      onSubmit={submit}
      testId="pricing-multiple-form"
      title={originals.length > 0 ? t('multiple.editTitle', { count: originals.length }) : t('multiple.createTitle')}
      onCancel={onClose}
      saving={saving}
      cancelLabel={t('cancel')}
      submitLabel={t('save')}
      cancelTestId="pricing-multiple-cancel"
      submitTestId="pricing-multiple-submit"
    >
      <Stack spacing={3}>
        <FormProblem error={save.error} unplaced={form.unplaced} testId="pricing-multiple-error" />
        <FormSection title={t('multiple.modelsSection')}>
          <Autocomplete
            multiple
            freeSolo
            options={suggestions}
            value={values.models}
            inputValue={pending}
            onInputChange={(_event, text) => setPending(text)}
            onChange={(_event, models) => {
              setPending('');
              change('models', [...new Set(models.flatMap(splitModels))]);
            }}
            disabled={saving}
            filterSelectedOptions
            renderValue={(models, getItemProps) =>
              models.map((model, index) => {
                const { key, ...itemProps } = getItemProps({ index });
                return (
                  <Chip
                    key={key}
                    {...itemProps}
                    size="small"
                    label={model}
                    color={taken.has(model) && !originalNames.includes(model) ? 'error' : 'default'}
                    data-testid={`pricing-multiple-model-${model}`}
                  />
                );
              })
            }
            renderInput={(params) => (
              <TextField
                {...params}
                label={t('multiple.models')}
                required
                error={Boolean(errors.models)}
                helperText={errors.models ?? t('multiple.modelsHint')}
                onBlur={() => {
                  if (!pending.trim()) return;
                  addModels([pending]);
                  setPending('');
                }}
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'pricing-multiple-models' },
                  formHelperText: { 'data-testid': 'pricing-multiple-models-helper' } as object,
                }}
              />
            )}
          />
          {removed.length > 0 && (
            <Alert severity="warning" data-testid="pricing-multiple-removed">
              {t('multiple.removedWarning', { models: removed.join(', ') })}
            </Alert>
          )}
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

/** One price for several models (reference "multiple" form): adds, updates and drops models together. */
export const MultiplePriceDialog = sessionFormDialog(MultiplePriceForm, { testId: 'pricing-multiple-dialog' });
