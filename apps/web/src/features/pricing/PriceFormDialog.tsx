import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { PriceView } from '@one-hub/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm, FormDialog } from '../../components/FormDialog.js';
import { describeError } from '../../lib/notify.js';
import { FormSection, PriceFields } from './PriceFields.js';
import {
  emptyPriceFields,
  type PriceFieldValues,
  type PriceFormErrors,
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
  /** Every stored model, for the uniqueness check. */
  taken: ReadonlySet<string>;
  owners: readonly OwnerOption[];
  onClose(): void;
  onSaved(price: PriceView, created: boolean): void;
}

function PriceForm({ price, taken, owners, onClose, onSaved }: PriceFormProps) {
  const { t } = useTranslation('pricing');
  const [values, setValues] = useState<PriceFormValues>(() => ({
    model: price?.model ?? '',
    ...(price ? priceToFields(price) : emptyPriceFields()),
  }));
  const [errors, setErrors] = useState<PriceFormErrors>({});
  const [unplaced, setUnplaced] = useState<string[]>([]);
  const models = useModelList();
  const save = useSavePrice();
  const saving = save.isPending;
  const suggestions = (models.data ?? []).filter((model) => !taken.has(model));

  const change = <Key extends keyof PriceFormValues>(field: Key, value: PriceFormValues[Key]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validatePriceForm(values, taken, price?.model ?? null, (key, options) => t(key, options));
    if (!result.ok) {
      setErrors(result.errors);
      setUnplaced(result.unplaced);
      return;
    }
    setUnplaced([]);
    save.mutate(
      { original: price?.model ?? null, body: result.body },
      {
        onSuccess: (saved) => onSaved(saved, price === null),
        onError: (error) => {
          // A model priced meanwhile by someone else: show it where the name is typed.
          if (serverErrorField(describeError(error)) === 'model') {
            setErrors((current) => ({
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
        {(save.isError || unplaced.length > 0) && (
          <Alert severity="error" data-testid="pricing-form-error">
            {save.isError ? describeError(save.error) : unplaced.join(' ')}
          </Alert>
        )}
        <FormSection title={t('form.modelSection')}>
          <Autocomplete
            freeSolo
            options={suggestions}
            inputValue={values.model}
            onInputChange={(_event, model) => change('model', model)}
            disabled={saving}
            renderInput={(params) => (
              <TextField
                {...params}
                name="model"
                label={t('form.model')}
                required
                autoFocus
                error={Boolean(errors.model)}
                helperText={errors.model ?? t('form.modelHint')}
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'pricing-form-model' },
                  formHelperText: { 'data-testid': 'pricing-form-model-helper' } as object,
                }}
              />
            )}
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
export function PriceFormDialog({
  open,
  session,
  ...props
}: PriceFormProps & { open: boolean; session: number | null }) {
  return (
    <FormDialog open={open} onClose={props.onClose} testId="pricing-dialog">
      {session !== null && <PriceForm key={session} {...props} />}
    </FormDialog>
  );
}
