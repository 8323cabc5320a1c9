import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MAX_FALLBACK_MODELS } from '@one-hub/contracts';
import { useContext } from 'react';
import { type FieldValues, useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AddRowBar, messageAt, RemoveRowButton } from '../form/EditableRows.js';
import { FormSaving, FormTextField } from '../form/FormFields.js';

interface FallbacksEditorProps {
  /** The form field holding the rows (`FallbackRow[]`). */
  name?: string;
  /** Prefix of the test ids: `<testId>-add`, `<testId>-0-model`, … */
  testId: string;
  /** Under the rows; says whose fallbacks these are. */
  hint: string;
}

/**
 * A fallback map in a form (a key's or a group's): one row per requested model with the models
 * tried after it, in order. The form's check (`checkFallbackRows`) puts its messages under
 * `<name>.<row>.model`, `<name>.<row>.fallbacks` and `<name>`.
 */
export function FallbacksEditor({ name = 'fallbacks', testId, hint }: FallbacksEditorProps) {
  const { t } = useTranslation('fallback');
  const { control, clearErrors, formState } = useFormContext<FieldValues>();
  const { fields, append, remove } = useFieldArray({ control, name });
  const saving = useContext(FormSaving);

  return (
    <Stack spacing={1.5} data-testid={testId}>
      {fields.length === 0 && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid={`${testId}-none`}>
          {t('editor.none')}
        </Typography>
      )}
      {fields.map((field, index) => {
        const at = `${name}.${index}`;
        return (
          <Box key={field.id} data-testid={`${testId}-row-${index}`}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
              <FormTextField<FieldValues>
                size="small"
                name={`${at}.model`}
                label={t('editor.model')}
                sx={{ minWidth: { sm: 200 } }}
                slotProps={{ htmlInput: { 'data-testid': `${testId}-${index}-model`, autoComplete: 'off' } }}
              />
              <FormTextField<FieldValues>
                size="small"
                fullWidth
                name={`${at}.fallbacks`}
                label={t('editor.fallbacks')}
                placeholder={t('editor.fallbacksPlaceholder')}
                slotProps={{ htmlInput: { 'data-testid': `${testId}-${index}-fallbacks`, autoComplete: 'off' } }}
              />
              <RemoveRowButton
                label={t('editor.remove')}
                onClick={() => {
                  remove(index);
                  clearErrors(name);
                }}
                disabled={saving}
                testId={`${testId}-${index}-remove`}
              />
            </Stack>
          </Box>
        );
      })}
      <AddRowBar
        label={t('editor.add')}
        onClick={() => {
          append({ model: '', fallbacks: '' });
          clearErrors(name);
        }}
        disabled={saving || fields.length >= MAX_FALLBACK_MODELS}
        testId={testId}
        hint={hint}
        message={messageAt(formState.errors, name)}
      />
    </Stack>
  );
}
