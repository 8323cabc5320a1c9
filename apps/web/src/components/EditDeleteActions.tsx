import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';

interface EditDeleteActionsProps {
  /** Tooltips ("Edit", "Delete") and accessible names naming the row ("Edit gpt-4o"). */
  editLabel: string;
  deleteLabel: string;
  editAriaLabel: string;
  deleteAriaLabel: string;
  onEdit(): void;
  onDelete(): void;
  editTestId: string;
  deleteTestId: string;
}

/** The small edit and (red) delete icon buttons at the end of a table row. */
export function EditDeleteActions({
  editLabel,
  deleteLabel,
  editAriaLabel,
  deleteAriaLabel,
  onEdit,
  onDelete,
  editTestId,
  deleteTestId,
}: EditDeleteActionsProps) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
      <Tooltip title={editLabel}>
        <IconButton size="small" onClick={onEdit} aria-label={editAriaLabel} data-testid={editTestId}>
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={deleteLabel}>
        <IconButton
          size="small"
          color="error"
          onClick={onDelete}
          aria-label={deleteAriaLabel}
          data-testid={deleteTestId}
        >
          <DeleteOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}
