import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';

interface SuggestFieldProps {
  value: string;
  onChange(value: string): void;
  /** Values offered while typing; any other text is accepted too. */
  suggestions: string[];
  label: string;
  /** The field's message, shown as an error in place of the hint. */
  error: string | undefined;
  hint: ReactNode;
  disabled: boolean;
  name?: string;
  required?: boolean;
  autoFocus?: boolean;
  /** `data-testid` of the input; its helper text gets `<testId>-helper`. */
  testId: string;
}

/** A text input that offers values while typing but takes any text, such as a model name. */
export function SuggestField({
  value,
  onChange,
  suggestions,
  label,
  error,
  hint,
  disabled,
  name,
  required,
  autoFocus,
  testId,
}: SuggestFieldProps) {
  return (
    <Autocomplete
      freeSolo
      options={suggestions}
      inputValue={value}
      onInputChange={(_event, text) => onChange(text)}
      disabled={disabled}
      renderInput={(params) => (
        <TextField
          {...params}
          name={name}
          label={label}
          required={required}
          autoFocus={autoFocus}
          error={Boolean(error)}
          helperText={error ?? hint}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId },
            formHelperText: { 'data-testid': `${testId}-helper` } as object,
          }}
        />
      )}
    />
  );
}
