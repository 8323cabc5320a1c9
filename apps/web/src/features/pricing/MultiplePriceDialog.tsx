import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { PriceView, SyncPricesResult } from '@one-hub/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { useCheckedForm } from '../../components/form/checkedForm.js';
import { useFormBinding } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { FormSection, PriceFields } from './PriceFields.js';
import {
  emptyPriceFields,
  type MultiplePriceFormValues,
  type PriceFieldValues,
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
  const originalNames = originals.map((price) => price.model);
  const form = useCheckedForm(
    (): MultiplePriceFormValues => ({
      models: originals.map((price) => price.model),
      ...(originals[0] ? priceToFields(originals[0]) : emptyPriceFields()),
    }),
    (values) => validateMultiplePriceForm(values, taken, originalNames, (key, options) => t(key, options)),
  );
  const [pending, setPending] = useState('');
  const modelList = useModelList();
  const save = useSaveMultiplePrices();
  const saving = save.isPending;
  const binding = useFormBinding(form, saving);
  const { values, errors, change } = binding;
  const suggestions = (modelList.data ?? []).filter((model) => !taken.has(model) || originalNames.includes(model));

  const addModels = (models: string[]) =>
    change('models', [...new Set([...values.models, ...models.flatMap(splitModels)])]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    // A name still being typed counts too.
    if (pending.trim()) form.setValue('models', [...new Set([...values.models, ...splitModels(pending)])]);
    setPending('');
    return form.handleSubmit((body) => save.mutate(body, { onSuccess: onSaved }))(event);
  };
  const removed = originalNames.filter((model) => !values.models.includes(model));

  return (
    <CheckedDialogForm
      form={form}
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
        <FormProblem error={save.error} testId="pricing-multiple-error" />
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
          {...binding}
          change={change as <Key extends keyof PriceFieldValues>(field: Key, value: PriceFieldValues[Key]) => void}
          owners={owners}
        />
      </Stack>
    </CheckedDialogForm>
  );
}

/** One price for several models (reference "multiple" form): adds, updates and drops models together. */
export const MultiplePriceDialog = sessionFormDialog(MultiplePriceForm, { testId: 'pricing-multiple-dialog' });
