import { useRef, useState } from 'react';
import {
  type FieldErrors,
  type FieldValues,
  type Path,
  type Resolver,
  set,
  type UseFormReturn,
  type UseFormSetError,
  useForm,
} from 'react-hook-form';
import { isApiError } from '../../lib/api.js';
import { describeError } from '../../lib/notify.js';

/** What a form's check answers: the body to send, or the messages to show. */
export type FormCheck<Body, Field extends string> =
  | { ok: true; body: Body }
  | { ok: false; errors: Partial<Record<Field, string>>; unplaced: string[] };

/** The key of the message above the form: the check's unplaced messages, or a refusal naming no field. */
export const SERVER_ERROR = 'root.server';

/**
 * A react-hook-form form whose submit runs the form's own check. Each `<x>Form.ts` check parses
 * the values with the contracts' zod schema and turns its issues into the form's translated
 * messages (with the rules across fields the schema cannot see), so it is the form's resolver:
 * its body is what `handleSubmit` hands on, its messages go to their fields, and the unplaced ones
 * above the form. Values are checked on submit only; changing a field clears its message
 * (see FormTextField), as the console's forms always did.
 */
export function useCheckedForm<Values extends FieldValues, Body, Field extends string>(
  initial: Values | (() => Values),
  check: (values: Values) => FormCheck<Body, Field>,
): UseFormReturn<Values, unknown, Body> {
  const [defaultValues] = useState(initial);
  // The check closes over the dialog's props (the subject, the translation), so the latest one runs.
  const latestCheck = useRef(check);
  latestCheck.current = check;
  return useForm<Values, unknown, Body>({
    defaultValues: defaultValues as never,
    resolver: checkResolver((values) => latestCheck.current(values)),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
}

/** A resolver from a form's check: the body when it passes, else its messages by field and above the form. */
export function checkResolver<Values extends FieldValues, Body, Field extends string>(
  check: (values: Values) => FormCheck<Body, Field>,
): Resolver<Values, unknown, Body> {
  return (values) => {
    const result = check(values);
    if (result.ok) return { values: result.body, errors: {} };
    return { values: {}, errors: checkErrors(result.errors, result.unplaced) as FieldErrors<Values> };
  };
}

function checkErrors(errors: Partial<Record<string, string>>, unplaced: readonly string[]) {
  const fieldErrors: Record<string, unknown> = {};
  // A field named by a path (`config.secret`) is nested, where react-hook-form looks it up and clears it.
  for (const [field, message] of Object.entries(errors)) {
    if (message) set(fieldErrors, field, { type: 'check', message });
  }
  if (unplaced.length > 0) fieldErrors.root = { server: { type: 'check', message: unplaced.join(' ') } };
  return fieldErrors;
}

/**
 * Shows a server refusal beside the field the answer names (the envelope's `field`) when this
 * form has it, else above the form. `fieldOf` maps the API's field path to the form's field;
 * the message text is never read to guess one. Answers the field it was placed on, if any.
 */
export function showServerError<Values extends FieldValues>(
  setError: UseFormSetError<Values>,
  error: unknown,
  fieldOf: (apiField: string) => Path<Values> | undefined,
): Path<Values> | undefined {
  const field = isApiError(error) && error.field !== undefined ? fieldOf(error.field) : undefined;
  setError(field ?? (SERVER_ERROR as Path<Values>), { type: 'server', message: describeError(error) });
  return field;
}

/** `fieldOf` for forms whose fields are named like the API's: the field when the form lists it. */
export function sameNamedField<Field extends string>(fields: readonly Field[]) {
  return (apiField: string): Field | undefined => fields.find((field) => field === apiField);
}

/** What `saveWith` needs of a save mutation (TanStack Query's `mutate`). */
interface SaveMutation<Body, Saved> {
  mutate(body: Body, options: { onSuccess(saved: Saved): void; onError(error: unknown): void }): void;
}

/**
 * The submit of a form that saves its checked body with one mutation: the saved answer goes to
 * `onSaved`, and a refusal is placed on the field it names (see `showServerError`).
 */
export function saveWith<Values extends FieldValues, Body, Saved>(
  form: Pick<UseFormReturn<Values, unknown, Body>, 'setError'>,
  mutation: SaveMutation<Body, Saved>,
  fieldOf: (apiField: string) => Path<Values> | undefined,
  onSaved: (saved: Saved) => void,
): (body: Body) => void {
  return (body) =>
    mutation.mutate(body, {
      onSuccess: onSaved,
      onError: (error) => showServerError(form.setError, error, fieldOf),
    });
}
