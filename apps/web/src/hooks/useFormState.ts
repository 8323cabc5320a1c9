import { useState } from 'react';

/** What a form's validator answers: the body to send, or the messages to show. */
export type FormCheck<Body, Field extends string> =
  | { ok: true; body: Body }
  | { ok: false; errors: Partial<Record<Field, string>>; unplaced: string[] };

export interface FormState<Values, Field extends string> {
  values: Values;
  setValues(values: Values): void;
  /** Each field's message, shown in place of its hint. */
  errors: Partial<Record<Field, string>>;
  setErrors(update: (current: Partial<Record<Field, string>>) => Partial<Record<Field, string>>): void;
  /** Messages that belong to no field, shown above the form. */
  unplaced: string[];
  setUnplaced(messages: string[]): void;
  /** Sets one field and clears the message it (or what `clears` names for it) was showing. */
  change<Key extends keyof Values>(field: Key, value: Values[Key]): void;
  /** Shows a failed check's messages and answers null, or clears the unplaced ones and answers the body. */
  accept<Body>(check: FormCheck<Body, Field>): Body | null;
}

/**
 * The state of a create/edit form: values, messages per field and messages without one.
 * `clears` names the messages a change wipes when they are not the changed field's own.
 */
export function useFormState<Values extends object, Field extends string = Extract<keyof Values, string>>(
  initial: Values | (() => Values),
  clears: (field: keyof Values) => readonly string[] = (field) => [String(field)],
): FormState<Values, Field> {
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [unplaced, setUnplaced] = useState<string[]>([]);

  const change = <Key extends keyof Values>(field: Key, value: Values[Key]) => {
    setValues((current) => ({ ...current, [field]: value }));
    const cleared = Object.fromEntries(clears(field).map((name) => [name, undefined]));
    setErrors((current) => ({ ...current, ...cleared }));
  };
  const accept = <Body>(check: FormCheck<Body, Field>): Body | null => {
    if (!check.ok) {
      setErrors(() => check.errors);
      setUnplaced(check.unplaced);
      return null;
    }
    setUnplaced([]);
    return check.body;
  };
  return { values, setValues, errors, setErrors, unplaced, setUnplaced, change, accept };
}
