import Alert from '@mui/material/Alert';
import type { ReactNode } from 'react';
import { describeError, notify } from '../lib/notify.js';
import { ConfirmDialog } from './ConfirmDialog.js';

/** What `DeleteDialog` needs of a delete mutation (TanStack Query's). */
interface DeleteMutation {
  mutate(id: number, options: { onSuccess(): void }): void;
  reset(): void;
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

interface DeleteDialogProps<Row extends { id: number }> {
  /** The row to delete; the dialog is open while it is set. */
  row: Row | null;
  onClose(): void;
  remove: DeleteMutation;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** The notice once the row is deleted. */
  deletedText(row: Row): string;
  /** `data-testid`s are `<prefix>-delete-dialog`, `-delete-confirm`, `-delete-cancel`, `-delete-error`. */
  testIdPrefix: string;
  /**
   * A refusal stays in the dialog (the server names why, such as users still in a group) instead
   * of only in the error notice; it is cleared when the dialog closes.
   */
  showsRefusal?: boolean;
}

/** Asks before deleting one row of a list; closes with a notice once the delete succeeded. */
export function DeleteDialog<Row extends { id: number }>({
  row,
  onClose,
  remove,
  deletedText,
  testIdPrefix,
  showsRefusal = false,
  ...texts
}: DeleteDialogProps<Row>) {
  const close = () => {
    if (showsRefusal) remove.reset();
    onClose();
  };
  const confirm = () => {
    if (!row) return;
    remove.mutate(row.id, {
      onSuccess: () => {
        notify.success(deletedText(row));
        close();
      },
    });
  };
  return (
    <ConfirmDialog
      open={row !== null}
      {...texts}
      busy={remove.isPending}
      onConfirm={confirm}
      onClose={close}
      testId={`${testIdPrefix}-delete-dialog`}
      confirmTestId={`${testIdPrefix}-delete-confirm`}
      cancelTestId={`${testIdPrefix}-delete-cancel`}
    >
      {showsRefusal && remove.isError && (
        <Alert severity="error" sx={{ mt: 2 }} data-testid={`${testIdPrefix}-delete-error`}>
          {describeError(remove.error)}
        </Alert>
      )}
    </ConfirmDialog>
  );
}
