import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { MAX_FALLBACK_MODELS } from '@one-hub/contracts';
import { useContext } from 'react';
import { type FieldValues, get, useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
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
  const listError: unknown = get(formState.errors, name);
  const listMessage =
    typeof listError === 'object' && listError !== null ? (listError as { message?: unknown }).message : undefined;

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
              <Tooltip title={t('editor.remove')}>
                <span>
                  <IconButton
                    aria-label={t('editor.remove')}
                    onClick={() => {
                      remove(index);
                      clearErrors(name);
                    }}
                    disabled={saving}
                    sx={{ mt: { sm: 0.25 } }}
                    data-testid={`${testId}-${index}-remove`}
                  >
                    <DeleteOutlined fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
            </Stack>
          </Box>
        );
      })}
      {typeof listMessage === 'string' && (
        <FormHelperText error sx={{ mt: 0 }} data-testid={`${testId}-error`}>
          {listMessage}
        </FormHelperText>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <Button
          size="small"
          variant="outlined"
          startIcon={<Add />}
          disabled={saving || fields.length >= MAX_FALLBACK_MODELS}
          onClick={() => {
            append({ model: '', fallbacks: '' });
            clearErrors(name);
          }}
          data-testid={`${testId}-add`}
        >
          {t('editor.add')}
        </Button>
        <Typography variant="caption" sx={{ color: 'text.secondary', flex: 1, minWidth: 200 }}>
          {hint}
        </Typography>
      </Box>
    </Stack>
  );
}
