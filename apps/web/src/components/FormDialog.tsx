import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { FormEvent, ReactNode } from 'react';

interface FormDialogProps {
  open: boolean;
  onClose(): void;
  maxWidth?: 'xs' | 'sm' | 'md';
  /** `data-testid` of the dialog. */
  testId: string;
  /**
   * The form, usually keyed by an id that changes on every opening so it starts afresh; it stays
   * mounted while the dialog fades out.
   */
  children: ReactNode;
}

/** The dialog of a create/edit form: full screen on phones, its content scrolling between title and buttons. */
export function FormDialog({ open, onClose, maxWidth = 'sm', testId, children }: FormDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth={maxWidth}
      fullScreen={fullScreen}
      scroll="paper"
      data-testid={testId}
    >
      {children}
    </Dialog>
  );
}

interface DialogFormProps {
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  /** `data-testid` of the form element. */
  testId: string;
  title: ReactNode;
  children: ReactNode;
  onCancel(): void;
  /** The form is being sent: the fields' owner disables them, the buttons follow. */
  saving: boolean;
  cancelLabel: string;
  submitLabel: string;
  cancelTestId: string;
  submitTestId: string;
}

/** A form inside a `FormDialog`: title, the fields between dividers, cancel and submit buttons. */
export function DialogForm({
  onSubmit,
  testId,
  title,
  children,
  onCancel,
  saving,
  cancelLabel,
  submitLabel,
  cancelTestId,
  submitTestId,
}: DialogFormProps) {
  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      data-testid={testId}
      // The form sits between the dialog paper and its parts, so it passes the paper's column layout on.
      sx={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 }}
    >
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers>{children}</DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onCancel} disabled={saving} color="inherit" data-testid={cancelTestId}>
          {cancelLabel}
        </Button>
        <Button type="submit" variant="contained" loading={saving} data-testid={submitTestId}>
          {submitLabel}
        </Button>
      </DialogActions>
    </Box>
  );
}
