import Alert from '@mui/material/Alert';
import { useFormContext } from 'react-hook-form';
import { describeError } from '../../lib/notify.js';

interface FormProblemProps {
  /** The server's refusal of the last send, if the form does not place it itself; it wins. */
  error?: unknown;
  /** Messages that belong to no field, for forms not yet on react-hook-form. */
  unplaced?: readonly string[];
  testId: string;
}

/**
 * Above a form's fields: why it was not saved, when no single field can show it (the check's
 * unplaced messages, or a refusal naming no field of the form; see checkedForm.ts).
 */
export function FormProblem({ error, unplaced, testId }: FormProblemProps) {
  // Null outside a FormProvider.
  const form = useFormContext() as ReturnType<typeof useFormContext> | null;
  const failed = error !== null && error !== undefined;
  const message = failed ? describeError(error) : (unplaced?.join(' ') ?? form?.formState.errors.root?.server?.message);
  if (!message) return null;
  return (
    <Alert severity="error" data-testid={testId}>
      {message}
    </Alert>
  );
}
