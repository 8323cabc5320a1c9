import Alert from '@mui/material/Alert';
import { useFormContext } from 'react-hook-form';
import { describeError } from '../../lib/notify.js';

interface FormProblemProps {
  /** The server's refusal of the last send, if the form does not place it itself; it wins. */
  error?: unknown;
  testId: string;
}

/**
 * Above a form's fields: why it was not saved, when no single field can show it (the check's
 * unplaced messages, or a refusal naming no field of the form; see checkedForm.ts).
 */
export function FormProblem({ error, testId }: FormProblemProps) {
  const { formState } = useFormContext();
  const failed = error !== null && error !== undefined;
  const message = failed ? describeError(error) : formState.errors.root?.server?.message;
  if (!message) return null;
  return (
    <Alert severity="error" data-testid={testId}>
      {message}
    </Alert>
  );
}
