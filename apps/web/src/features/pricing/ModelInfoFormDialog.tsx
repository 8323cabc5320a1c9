import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { MODEL_MODALITIES, type ModelInfoView } from '@one-hub/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm, FormDialog } from '../../components/FormDialog.js';
import { describeError } from '../../lib/notify.js';
import {
  type ModelInfoFormField,
  type ModelInfoFormValues,
  modelInfoToForm,
  validateModelInfoForm,
} from './metadataForm.js';
import { FormSection } from './PriceFields.js';
import { useModelList, useSaveModelInfo } from './pricing.api.js';

/** A URL scheme, the same in every language. */
const URL_PLACEHOLDER = 'https://';

interface ModelInfoFormProps {
  info: ModelInfoView | null;
  takenModels: ReadonlySet<string>;
  onClose(): void;
  onSaved(info: ModelInfoView, created: boolean): void;
}

type ListField = 'inputModalities' | 'outputModalities' | 'tags';

function ListInput({
  field,
  values,
  options,
  error,
  disabled,
  change,
}: {
  field: ListField;
  values: ModelInfoFormValues;
  options: readonly string[];
  error: string | undefined;
  disabled: boolean;
  change(field: ListField, value: string[]): void;
}) {
  const { t } = useTranslation('pricing');
  const [text, setText] = useState('');
  const add = () => {
    const item = text.trim();
    if (item && !values[field].includes(item)) change(field, [...values[field], item]);
    setText('');
  };
  return (
    <Autocomplete
      multiple
      freeSolo
      options={options as string[]}
      value={values[field]}
      inputValue={text}
      onInputChange={(_event, next) => setText(next)}
      onChange={(_event, items) => {
        setText('');
        change(field, [...new Set(items.map((item) => item.trim()).filter(Boolean))]);
      }}
      filterSelectedOptions
      disabled={disabled}
      getOptionLabel={(option) =>
        field === 'tags' ? option : t(`info.modalities.${option}`, { defaultValue: option })
      }
      renderValue={(items, getItemProps) =>
        items.map((item, index) => {
          const { key, ...props } = getItemProps({ index });
          return (
            <Chip
              key={key}
              {...props}
              size="small"
              label={field === 'tags' ? item : t(`info.modalities.${item}`, { defaultValue: item })}
            />
          );
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={t(`info.${field}`)}
          error={Boolean(error)}
          helperText={error ?? (field === 'tags' ? t('info.tagsHint') : ' ')}
          onBlur={add}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': `pricing-info-form-${field}` },
          }}
        />
      )}
    />
  );
}

function ModelInfoForm({ info, takenModels, onClose, onSaved }: ModelInfoFormProps) {
  const { t } = useTranslation('pricing');
  const [values, setValues] = useState<ModelInfoFormValues>(() => modelInfoToForm(info));
  const [errors, setErrors] = useState<Partial<Record<ModelInfoFormField, string>>>({});
  const [unplaced, setUnplaced] = useState<string[]>([]);
  const models = useModelList();
  const save = useSaveModelInfo();
  const saving = save.isPending;
  const suggestions = (models.data ?? []).filter((model) => !takenModels.has(model));

  const change = <Key extends ModelInfoFormField>(field: Key, value: ModelInfoFormValues[Key]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateModelInfoForm(values, takenModels, info?.model ?? null, (key, options) => t(key, options));
    if (!result.ok) {
      setErrors(result.errors);
      setUnplaced(result.unplaced);
      return;
    }
    setUnplaced([]);
    save.mutate({ id: info?.id ?? null, body: result.body }, { onSuccess: (saved) => onSaved(saved, info === null) });
  };
  const text = (field: 'name' | 'description' | 'contextLength' | 'maxTokens', extra: object = {}) => ({
    label: t(`info.${field}`),
    value: values[field],
    onChange: (event: { target: { value: string } }) => change(field, event.target.value),
    error: Boolean(errors[field]),
    disabled: saving,
    fullWidth: true,
    ...extra,
  });

  return (
    <DialogForm
      onSubmit={submit}
      testId="pricing-info-form"
      title={info ? t('info.editTitle', { model: info.model }) : t('info.createTitle')}
      onCancel={onClose}
      saving={saving}
      cancelLabel={t('cancel')}
      submitLabel={info ? t('save') : t('add')}
      cancelTestId="pricing-info-form-cancel"
      submitTestId="pricing-info-form-submit"
    >
      <Stack spacing={3}>
        {(save.isError || unplaced.length > 0) && (
          <Alert severity="error" data-testid="pricing-info-form-error">
            {save.isError ? describeError(save.error) : unplaced.join(' ')}
          </Alert>
        )}
        <FormSection title={t('info.basicSection')}>
          <Autocomplete
            freeSolo
            options={suggestions}
            inputValue={values.model}
            onInputChange={(_event, model) => change('model', model)}
            disabled={saving}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t('info.model')}
                required
                autoFocus
                error={Boolean(errors.model)}
                helperText={errors.model ?? t('info.modelHint')}
                slotProps={{
                  ...params.slotProps,
                  htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'pricing-info-form-model' },
                  formHelperText: { 'data-testid': 'pricing-info-form-model-helper' } as object,
                }}
              />
            )}
          />
          <TextField
            {...text('name')}
            required
            helperText={errors.name ?? t('info.nameHint')}
            slotProps={{
              htmlInput: { 'data-testid': 'pricing-info-form-name' },
              formHelperText: { 'data-testid': 'pricing-info-form-name-helper' } as object,
            }}
          />
          <TextField
            {...text('description')}
            multiline
            minRows={2}
            maxRows={6}
            helperText={errors.description ?? ' '}
            slotProps={{ htmlInput: { 'data-testid': 'pricing-info-form-description' } }}
          />
        </FormSection>
        <FormSection title={t('info.limitsSection')}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              {...text('contextLength')}
              type="number"
              helperText={errors.contextLength ?? t('info.tokensHint')}
              slotProps={{ htmlInput: { min: 0, 'data-testid': 'pricing-info-form-context' } }}
            />
            <TextField
              {...text('maxTokens')}
              type="number"
              helperText={errors.maxTokens ?? t('info.tokensHint')}
              slotProps={{ htmlInput: { min: 0, 'data-testid': 'pricing-info-form-max-tokens' } }}
            />
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {(['inputModalities', 'outputModalities'] as const).map((field) => (
              <Box key={field} sx={{ flex: 1, minWidth: 0 }}>
                <ListInput
                  field={field}
                  values={values}
                  options={MODEL_MODALITIES}
                  error={errors[field]}
                  disabled={saving}
                  change={change}
                />
              </Box>
            ))}
          </Stack>
        </FormSection>
        <FormSection title={t('info.moreSection')}>
          <ListInput field="tags" values={values} options={[]} error={errors.tags} disabled={saving} change={change} />
          <TextField
            label={t('info.supportUrls')}
            value={values.supportUrls}
            onChange={(event) => change('supportUrls', event.target.value)}
            error={Boolean(errors.supportUrls)}
            helperText={errors.supportUrls ?? t('info.supportUrlsHint')}
            disabled={saving}
            multiline
            minRows={2}
            placeholder={URL_PLACEHOLDER}
            slotProps={{
              htmlInput: { 'data-testid': 'pricing-info-form-urls' },
              formHelperText: { 'data-testid': 'pricing-info-form-urls-helper' } as object,
            }}
          />
        </FormSection>
      </Stack>
    </DialogForm>
  );
}

/** Add or edit the description of one model: name, limits, modalities, tags and links. */
export function ModelInfoFormDialog({
  open,
  session,
  ...props
}: ModelInfoFormProps & { open: boolean; session: number | null }) {
  return (
    <FormDialog open={open} onClose={props.onClose} testId="pricing-info-dialog">
      {session !== null && <ModelInfoForm key={session} {...props} />}
    </FormDialog>
  );
}
