import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { get } from 'react-hook-form';

/**
 * The parts every editor of a list of rows in a form shares (budget windows, model fallbacks):
 * a row's remove button, the list's own message, and the add button with its hint.
 */

/** The message react-hook-form holds at a path of its errors, if any. */
export function messageAt(errors: object, path: string): string | undefined {
  const error: unknown = get(errors, path);
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : undefined;
}

export function RemoveRowButton(props: { label: string; onClick(): void; disabled: boolean; testId: string }) {
  return (
    <Tooltip title={props.label}>
      <span>
        <IconButton
          aria-label={props.label}
          onClick={props.onClick}
          disabled={props.disabled}
          sx={{ mt: { sm: 0.25 } }}
          data-testid={props.testId}
        >
          <DeleteOutlined fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** The list's message (one naming no row), then the add button and the hint beside it. */
export function AddRowBar(props: {
  label: string;
  onClick(): void;
  disabled: boolean;
  testId: string;
  hint: string;
  message: string | undefined;
}) {
  return (
    <>
      {props.message && (
        <FormHelperText error sx={{ mt: 0 }} data-testid={`${props.testId}-error`}>
          {props.message}
        </FormHelperText>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <Button
          size="small"
          variant="outlined"
          startIcon={<Add />}
          disabled={props.disabled}
          onClick={props.onClick}
          data-testid={`${props.testId}-add`}
        >
          {props.label}
        </Button>
        <Typography variant="caption" sx={{ color: 'text.secondary', flex: 1, minWidth: 200 }}>
          {props.hint}
        </Typography>
      </Box>
    </>
  );
}
