import type { ReactNode } from 'react';

/** The parts of a form a field needs: its value, its message, a way to change it, and whether it is locked. */
export interface FieldBinding<Values, Field extends string> {
  values: Values;
  errors: Partial<Record<Field, string>>;
  change<Key extends keyof Values>(field: Key, value: Values[Key]): void;
  disabled: boolean;
}

/** The fields of `Values` that hold text, which an input can edit directly. */
type TextKey<Values> = { [Key in keyof Values]: Values[Key] extends string ? Key : never }[keyof Values];

/**
 * Props that tie a `TextField` to one text field of a form: the value, the change, and the
 * field's message shown as an error in place of the hint. Spread them, then add the rest.
 */
export function bindTextFields<Values, Field extends string>(form: FieldBinding<Values, Field>) {
  return <Key extends TextKey<Values> & Field>(field: Key, hint?: ReactNode) => ({
    value: form.values[field] as string,
    onChange: (event: { target: { value: string } }) => form.change(field, event.target.value as Values[Key]),
    error: Boolean(form.errors[field]),
    helperText: form.errors[field] ?? hint,
    disabled: form.disabled,
  });
}

/** Data attributes are valid on every slot but absent from MUI's slot prop types. */
export function testIdSlots(testId: string, helperTestId?: string) {
  return {
    htmlInput: { 'data-testid': testId },
    ...(helperTestId ? { formHelperText: { 'data-testid': helperTestId } as object } : {}),
  };
}

/** The fields of `Values` that are on or off. */
type SwitchKey<Values> = { [Key in keyof Values]: Values[Key] extends boolean ? Key : never }[keyof Values];

/** Props that tie a `SwitchField` to one on/off field of a form; `testId` names the switch's input. */
export function bindSwitchFields<Values, Field extends string>(form: FieldBinding<Values, Field>) {
  return <Key extends SwitchKey<Values>>(field: Key, testId: string) => ({
    checked: form.values[field] as boolean,
    onChange: (checked: boolean) => form.change(field, checked as Values[Key]),
    disabled: form.disabled,
    testId,
  });
}
