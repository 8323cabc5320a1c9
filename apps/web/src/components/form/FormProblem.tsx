import Alert from '@mui/material/Alert';
import { describeError } from '../../lib/notify.js';

interface FormProblemProps {
  /** The server's refusal of the last send, if any; it wins over the messages. */
  error?: unknown;
  /** Messages that belong to no field. */
  unplaced: readonly string[];
  testId: string;
}

/** Above a form's fields: why it was not saved, when no single field can show it. */
export function FormProblem({ error, unplaced, testId }: FormProblemProps) {
  const failed = error !== null && error !== undefined;
  if (!failed && unplaced.length === 0) return null;
  return (
    <Alert severity="error" data-testid={testId}>
      {failed ? describeError(error) : unplaced.join(' ')}
    </Alert>
  );
}
