import type { ComponentType } from 'react';
import { FormDialog } from '../FormDialog.js';

interface DialogOptions {
  /** `data-testid` of the dialog. */
  testId: string;
  maxWidth?: 'xs' | 'sm';
}

/** What the page gives the dialog on top of the form's own props. */
export interface SessionProps {
  open: boolean;
  /** Changes on every opening, so the form starts afresh; null before the first. */
  session: number | null;
}

/**
 * Puts a create/edit form in a `FormDialog`: the form is keyed by the session, so each opening
 * starts from its subject again, and it stays mounted while the dialog fades out.
 */
export function sessionFormDialog<Props extends { onClose(): void }>(
  Form: ComponentType<Props>,
  { testId, maxWidth }: DialogOptions,
) {
  return function SessionFormDialog({ open, session, ...props }: Props & SessionProps) {
    // The rest is exactly the form's props: TypeScript cannot see that through the generic spread.
    const formProps = props as unknown as Props;
    return (
      <FormDialog open={open} onClose={formProps.onClose} maxWidth={maxWidth} testId={testId}>
        {session !== null && <Form key={session} {...formProps} />}
      </FormDialog>
    );
  };
}
