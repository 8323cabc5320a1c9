import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { createContext, type ReactNode, useContext } from 'react';
import { type FieldPath, type FieldValues, type UseFormReturn, useController, useFormContext } from 'react-hook-form';
import type { FieldBinding } from './fieldBinding.js';
import { SuggestField } from './SuggestField.js';
import { SwitchField } from './SwitchField.js';

/** Whether the form around is being sent: every bound field is locked meanwhile. */
export const FormSaving = createContext(false);

interface BoundProps<Values extends FieldValues> {
  name: FieldPath<Values>;
  /** Other fields whose messages a change here takes away (a switch that hides or locks them). */
  clears?: readonly FieldPath<Values>[];
  disabled?: boolean;
}

/** One field of the form around: its value, its message, and a change that clears that message. */
function useBoundField<Values extends FieldValues>({ name, clears = [], disabled }: BoundProps<Values>) {
  const { control, clearErrors } = useFormContext<Values>();
  const saving = useContext(FormSaving);
  const { field, fieldState } = useController({ control, name });
  const change = (value: unknown) => {
    field.onChange(value);
    clearErrors([name, ...clears]);
  };
  return { field, message: fieldState.error?.message, change, disabled: saving || Boolean(disabled) };
}

type FormTextFieldProps<Values extends FieldValues> = BoundProps<Values> &
  Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'error' | 'helperText' | 'disabled'> & {
    /** Shown under the input until the field has a message. */
    hint?: ReactNode;
  };

/** A text input bound to a field of the form around (a `FormProvider`), its message in place of the hint. */
export function FormTextField<Values extends FieldValues>({
  name,
  clears,
  disabled,
  hint,
  ...props
}: FormTextFieldProps<Values>) {
  const bound = useBoundField<Values>({ name, clears, disabled });
  return (
    <TextField
      {...props}
      name={name}
      value={bound.field.value}
      onChange={(event) => bound.change(event.target.value)}
      onBlur={bound.field.onBlur}
      inputRef={bound.field.ref}
      error={Boolean(bound.message)}
      helperText={bound.message ?? hint}
      disabled={bound.disabled}
    />
  );
}

type FormSwitchFieldProps<Values extends FieldValues> = BoundProps<Values> & {
  label: string;
  description?: string;
  testId: string;
};

/** A `SwitchField` bound to an on/off field of the form around. */
export function FormSwitchField<Values extends FieldValues>({
  name,
  clears,
  disabled,
  ...props
}: FormSwitchFieldProps<Values>) {
  const bound = useBoundField<Values>({ name, clears, disabled });
  return <SwitchField {...props} checked={bound.field.value} onChange={bound.change} disabled={bound.disabled} />;
}

type FormSuggestFieldProps<Values extends FieldValues> = BoundProps<Values> & {
  suggestions: string[];
  label: string;
  hint: ReactNode;
  required?: boolean;
  autoFocus?: boolean;
  testId: string;
};

/** A `SuggestField` bound to a text field of the form around. */
export function FormSuggestField<Values extends FieldValues>({
  name,
  clears,
  disabled,
  ...props
}: FormSuggestFieldProps<Values>) {
  const bound = useBoundField<Values>({ name, clears, disabled });
  return (
    <SuggestField
      {...props}
      name={name}
      value={bound.field.value}
      onChange={bound.change}
      error={bound.message}
      disabled={bound.disabled}
    />
  );
}

/**
 * The form as values, messages and a change, for the composite parts of a dialog (rows of ratios,
 * an autocomplete over objects, a settings block) that take a `FieldBinding` rather than one
 * field's name. A change clears the field's message (and those `clears` names for it, e.g. of
 * the field a switch locks), like the bound fields' changes do.
 */
export function useFormBinding<Values extends FieldValues, Body, Field extends string = Extract<keyof Values, string>>(
  form: UseFormReturn<Values, unknown, Body>,
  disabled: boolean,
  clears: (field: keyof Values) => readonly string[] = (field) => [String(field)],
): FieldBinding<Values, Field> {
  const values = form.watch() as Values;
  const errors = messagesByPath(form.formState.errors) as Partial<Record<Field, string>>;
  const change = <Key extends keyof Values>(field: Key, value: Values[Key]) => {
    form.setValue(field as unknown as FieldPath<Values>, value as never);
    form.clearErrors(clears(field) as FieldPath<Values>[]);
  };
  return { values, errors, change, disabled };
}

/** Each field's message by its path (`config.secret`), from react-hook-form's nested errors; the form's own go. */
function messagesByPath(errors: object, prefix = ''): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const [key, error] of Object.entries(errors)) {
    if (prefix === '' && key === 'root') continue;
    if (typeof error?.message === 'string') messages[`${prefix}${key}`] = error.message;
    else if (typeof error === 'object' && error !== null)
      Object.assign(messages, messagesByPath(error, `${prefix}${key}.`));
  }
  return messages;
}
