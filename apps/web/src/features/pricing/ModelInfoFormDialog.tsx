import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { MODEL_MODALITIES, type ModelInfoView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckedDialogForm } from '../../components/form/CheckedDialogForm.js';
import { useCheckedForm } from '../../components/form/checkedForm.js';
import { FormSuggestField, FormTextField, useFormBinding } from '../../components/form/FormFields.js';
import { FormProblem } from '../../components/form/FormProblem.js';
import { testIdSlots } from '../../components/form/fieldBinding.js';
import { sessionFormDialog } from '../../components/form/SessionFormDialog.js';
import { type ModelInfoFormValues, modelInfoToForm, validateModelInfoForm } from './metadataForm.js';
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
  const form = useCheckedForm(
    () => modelInfoToForm(info),
    (values) => validateModelInfoForm(values, takenModels, info?.model ?? null, (key, options) => t(key, options)),
  );
  const models = useModelList();
  const save = useSaveModelInfo();
  const saving = save.isPending;
  const { values, errors, change } = useFormBinding(form, saving);
  const suggestions = (models.data ?? []).filter((model) => !takenModels.has(model));
  const text = (field: 'name' | 'description' | 'contextLength' | 'maxTokens', hint: string) => ({
    name: field,
    label: t(`info.${field}`),
    fullWidth: true,
    hint,
  });

  return (
    <CheckedDialogForm
      form={form}
      onValid={(body) =>
        save.mutate({ id: info?.id ?? null, body }, { onSuccess: (saved) => onSaved(saved, info === null) })
      }
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
        <FormProblem error={save.error} testId="pricing-info-form-error" />
        <FormSection title={t('info.basicSection')}>
          <FormSuggestField<ModelInfoFormValues>
            name="model"
            suggestions={suggestions}
            label={t('info.model')}
            hint={t('info.modelHint')}
            required
            autoFocus
            testId="pricing-info-form-model"
          />
          <FormTextField<ModelInfoFormValues>
            {...text('name', t('info.nameHint'))}
            required
            slotProps={testIdSlots('pricing-info-form-name', 'pricing-info-form-name-helper')}
          />
          <FormTextField<ModelInfoFormValues>
            {...text('description', ' ')}
            multiline
            minRows={2}
            maxRows={6}
            slotProps={testIdSlots('pricing-info-form-description')}
          />
        </FormSection>
        <FormSection title={t('info.limitsSection')}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <FormTextField<ModelInfoFormValues>
              {...text('contextLength', t('info.tokensHint'))}
              type="number"
              slotProps={{ htmlInput: { min: 0, 'data-testid': 'pricing-info-form-context' } }}
            />
            <FormTextField<ModelInfoFormValues>
              {...text('maxTokens', t('info.tokensHint'))}
              type="number"
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
          <FormTextField<ModelInfoFormValues>
            name="supportUrls"
            label={t('info.supportUrls')}
            hint={t('info.supportUrlsHint')}
            multiline
            minRows={2}
            placeholder={URL_PLACEHOLDER}
            slotProps={testIdSlots('pricing-info-form-urls', 'pricing-info-form-urls-helper')}
          />
        </FormSection>
      </Stack>
    </CheckedDialogForm>
  );
}

/** Add or edit the description of one model: name, limits, modalities, tags and links. */
export const ModelInfoFormDialog = sessionFormDialog(ModelInfoForm, { testId: 'pricing-info-dialog' });
