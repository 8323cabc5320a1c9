import { useTranslation } from 'react-i18next';
import { EditDeleteActions } from '../../components/EditDeleteActions.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { usePendingDelete } from '../../hooks/usePendingDelete.js';
import { notify } from '../../lib/notify.js';

interface RowEditingOptions<Row> {
  /** The delete mutation, given the row's id. */
  remove: { mutate(id: number, options: { onSuccess(): void }): void; isPending: boolean };
  /** What a row is called in the buttons' accessible names ("Edit gpt-4o"). */
  nameOf(row: Row): string;
  /** The notice once a row is deleted. */
  deletedText(row: Row): string;
  /** `data-testid`s are `<prefix>-edit`, `-delete`, `-delete-dialog`. */
  testIdPrefix: string;
}

/**
 * The editing of a list loaded whole (model information, owners): the create/edit dialog's state,
 * each row's edit and delete buttons, and the delete confirmation's wiring (it closes once the
 * delete succeeded, so a failed one can be tried again).
 */
export function useRowEditing<Row extends { id: number }>({
  remove,
  nameOf,
  deletedText,
  testIdPrefix,
}: RowEditingOptions<Row>) {
  const { t } = useTranslation('pricing');
  const dialog = useDialogSubject<Row>();
  const deletion = usePendingDelete<Row>((row, done) =>
    remove.mutate(row.id, {
      onSuccess: () => {
        notify.success(deletedText(row));
        done();
      },
    }),
  );
  const actions = (row: Row) => (
    <EditDeleteActions
      editLabel={t('edit')}
      deleteLabel={t('delete')}
      editAriaLabel={t('editNamed', { model: nameOf(row) })}
      deleteAriaLabel={t('deleteNamed', { model: nameOf(row) })}
      onEdit={() => dialog.show(row)}
      onDelete={() => deletion.ask(row)}
      editTestId={`${testIdPrefix}-edit`}
      deleteTestId={`${testIdPrefix}-delete`}
    />
  );
  /** Closes the dialog and says what was saved. */
  const saved = (text: string) => {
    dialog.close();
    notify.success(text);
  };
  const confirm = {
    open: deletion.subject !== null,
    busy: remove.isPending,
    onConfirm: deletion.confirm,
    onClose: deletion.cancel,
    confirmLabel: t('delete'),
    testId: `${testIdPrefix}-delete-dialog`,
  };
  return { dialog, deleting: deletion.subject, actions, saved, confirm };
}
