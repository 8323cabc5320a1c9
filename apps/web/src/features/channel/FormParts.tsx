import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
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

/** A titled group of fields; `columns` lays them out two by two from the small breakpoint up. */
export function FormSection({
  title,
  children,
  columns = false,
}: {
  title: string;
  children: ReactNode;
  columns?: boolean;
}) {
  return (
    <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
      <Typography component="legend" variant="overline" sx={{ color: 'text.secondary', mb: 1, p: 0 }}>
        {title}
      </Typography>
      {columns ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>{children}</Box>
      ) : (
        <Stack spacing={2}>{children}</Stack>
      )}
    </Box>
  );
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
      name={field}
      label={label}
      value={values[field]}
      onChange={(event) => change(field, event.target.value)}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? hint}
      disabled={disabled}
      fullWidth
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
  field: 'model_mapping' | 'model_headers' | 'custom_parameter' | 'plugin';
  label: string;
  hint: string;
  placeholder?: string;
}) {
  return (
    <TextField
      name={field}
      label={label}
      value={values[field]}
      onChange={(event) => change(field, event.target.value)}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? hint}
      placeholder={placeholder}
      disabled={disabled}
      multiline
      minRows={3}
      maxRows={12}
      fullWidth
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
