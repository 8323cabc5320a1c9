import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ProviderView } from '@one-hub/contracts';
import type { ReactNode } from 'react';
import { monospace } from './ChannelCells.js';
import type { ChannelFormErrors, ChannelFormField, ChannelFormMode, ChannelFormValues } from './channelForm.js';

export interface SectionProps {
  values: ChannelFormValues;
  errors: ChannelFormErrors;
  change<Key extends keyof ChannelFormValues>(field: Key, value: ChannelFormValues[Key]): void;
  disabled: boolean;
  mode: ChannelFormMode;
  provider: ProviderView | undefined;
}

/** Data attributes are valid on every slot but absent from MUI's slot prop types. */
export const testIdOf = (testId: string) => ({ 'data-testid': testId });

type TextFieldName = Extract<
  ChannelFormField,
  'name' | 'base_url' | 'proxy' | 'tag' | 'priority' | 'weight' | 'other' | 'key' | JsonFieldName
>;
type JsonFieldName = 'model_mapping' | 'model_headers' | 'custom_parameter' | 'plugin';

/** What every text input of the channel form takes from the form: its value, change and error (or hint). */
function bindText(
  field: TextFieldName,
  hint: ReactNode,
  { values, errors, change, disabled }: Pick<SectionProps, 'values' | 'errors' | 'change' | 'disabled'>,
) {
  return {
    name: field,
    value: values[field],
    onChange: (event: { target: { value: string } }) => change(field, event.target.value),
    error: Boolean(errors[field]),
    helperText: errors[field] ?? hint,
    disabled,
    fullWidth: true,
  };
}

/** A text input bound to one form field, with its error in place of the hint. */
export function FieldText({
  field,
  label,
  hint,
  values,
  errors,
  change,
  disabled,
  ...rest
}: Pick<SectionProps, 'values' | 'errors' | 'change' | 'disabled'> & {
  field: Extract<ChannelFormField, 'name' | 'base_url' | 'proxy' | 'tag' | 'priority' | 'weight' | 'other' | 'key'>;
  label: string;
  hint?: ReactNode;
  required?: boolean;
  multiline?: boolean;
  minRows?: number;
  placeholder?: string;
  type?: string;
  monospaced?: boolean;
  end?: ReactNode;
}) {
  const { monospaced, end, ...props } = rest;
  return (
    <TextField
      {...bindText(field, hint, { values, errors, change, disabled })}
      label={label}
      {...props}
      slotProps={{
        input: end ? { endAdornment: end } : {},
        htmlInput: {
          ...testIdOf(`channel-form-${field.replace('_', '-')}`),
          ...(monospaced ? { style: { fontFamily: monospace, fontSize: '0.8125rem' } } : {}),
        },
      }}
    />
  );
}

/** A JSON object typed as text; its validity is checked on submit and shown under it. */
export function JsonField({
  field,
  label,
  hint,
  placeholder,
  values,
  errors,
  change,
  disabled,
}: Pick<SectionProps, 'values' | 'errors' | 'change' | 'disabled'> & {
  field: JsonFieldName;
  label: string;
  hint: string;
  placeholder?: string;
}) {
  return (
    <TextField
      {...bindText(field, hint, { values, errors, change, disabled })}
      label={label}
      placeholder={placeholder}
      multiline
      minRows={3}
      maxRows={12}
      slotProps={{
        htmlInput: {
          ...testIdOf(`channel-form-${field.replaceAll('_', '-')}`),
          spellCheck: false,
          style: { fontFamily: monospace, fontSize: '0.8125rem' },
        },
      }}
    />
  );
}

export function SwitchField({
  label,
  hint,
  checked,
  onChange,
  disabled,
  testId,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled: boolean;
  testId: string;
}) {
  return (
    <FormControlLabel
      sx={{ ml: 0, gap: 1, alignItems: 'flex-start' }}
      control={
        <Switch
          size="small"
          checked={checked}
          disabled={disabled}
          onChange={(_event, value) => onChange(value)}
          slotProps={{ input: testIdOf(testId) }}
          sx={{ mt: 0.25 }}
        />
      }
      label={
        <Box>
          <Typography variant="body2">{label}</Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {hint}
          </Typography>
        </Box>
      }
    />
  );
}
