import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { type ReactNode, useRef } from 'react';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** The action is running: the confirm button spins, cancel and closing are disabled. */
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
  /** `data-testid` of the dialog. */
  testId: string;
  /** `data-testid` of the confirm button; `<testId>-confirm` unless given. */
  confirmTestId?: string;
  cancelTestId?: string;
  /** Red for actions that delete, lock out or replace data. */
  destructive?: boolean;
  /** `data-action` on the confirm button, for dialogs that confirm one of several actions. */
  action?: string;
  /** Shown under the message (an error of the last attempt, say). */
  children?: ReactNode;
}

/** Asks before an action; keeps its texts while it fades out after closing. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel,
  busy,
  onConfirm,
  onClose,
  testId,
  confirmTestId = `${testId}-confirm`,
  cancelTestId,
  destructive = true,
  action,
  children,
}: ConfirmDialogProps) {
  const shown = useRef({ title, message, confirmLabel, destructive, action });
  if (open) shown.current = { title, message, confirmLabel, destructive, action };
  const text = shown.current;
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth data-testid={testId}>
      <DialogTitle>{text.title}</DialogTitle>
      <DialogContent>
        <DialogContentText component={typeof text.message === 'string' ? 'p' : 'div'}>{text.message}</DialogContentText>
        {children}
      </DialogContent>
      <ConfirmActions
        cancelLabel={cancelLabel}
        confirmLabel={text.confirmLabel}
        busy={busy}
        onCancel={onClose}
        onConfirm={onConfirm}
        destructive={text.destructive}
        cancelTestId={cancelTestId}
        confirmTestId={confirmTestId}
        action={text.action}
      />
    </Dialog>
  );
}

type ConfirmActionsProps = Pick<
  ConfirmDialogProps,
  'cancelLabel' | 'confirmLabel' | 'busy' | 'onConfirm' | 'cancelTestId' | 'destructive' | 'action'
> & { onCancel(): void; confirmTestId: string };

/** The buttons of a dialog that asks before an action: cancel, and the (red, by default) confirm button. */
export function ConfirmActions({
  cancelLabel,
  confirmLabel,
  busy,
  onCancel,
  onConfirm,
  cancelTestId,
  confirmTestId,
  destructive = true,
  action,
}: ConfirmActionsProps) {
  return (
    <DialogActions sx={{ px: 3, pb: 2 }}>
      <Button onClick={onCancel} color="inherit" disabled={busy} data-testid={cancelTestId}>
        {cancelLabel}
      </Button>
      <Button
        variant="contained"
        color={destructive ? 'error' : 'primary'}
        onClick={onConfirm}
        loading={busy}
        data-testid={confirmTestId}
        data-action={action}
      >
        {confirmLabel}
      </Button>
    </DialogActions>
  );
}
