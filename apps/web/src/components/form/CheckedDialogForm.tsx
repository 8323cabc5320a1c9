import type { ComponentProps, FormEvent } from 'react';
import { type FieldValues, FormProvider, type SubmitHandler, type UseFormReturn } from 'react-hook-form';
import { DialogForm } from '../FormDialog.js';
import { FormSaving } from './FormFields.js';

type CheckedDialogFormProps<Values extends FieldValues, Body> = Omit<ComponentProps<typeof DialogForm>, 'onSubmit'> & {
  /** The form from `useCheckedForm`. */
  form: UseFormReturn<Values, unknown, Body>;
} & (
    | {
        /** Gets the checked body; runs only when the check passed. */
        onValid: SubmitHandler<Body>;
      }
    | {
        /** For a dialog that checks more than the form on submit: it calls `form.handleSubmit` itself. */
        onSubmit(event: FormEvent<HTMLFormElement>): void;
      }
  );

/**
 * A `DialogForm` over a react-hook-form form: submitting runs the form's check, and the bound
 * fields inside (FormTextField, FormSwitchField, FormSuggestField, FormProblem) find the form
 * and the saving state without being handed them.
 */
export function CheckedDialogForm<Values extends FieldValues, Body>(props: CheckedDialogFormProps<Values, Body>) {
  const { form, saving } = props;
  const onSubmit = 'onValid' in props ? form.handleSubmit(props.onValid) : props.onSubmit;
  const { form: _form, onValid: _onValid, ...dialogProps } = props as typeof props & { onValid?: unknown };
  return (
    <FormProvider {...form}>
      <FormSaving value={saving}>
        <DialogForm {...dialogProps} onSubmit={onSubmit} />
      </FormSaving>
    </FormProvider>
  );
}
