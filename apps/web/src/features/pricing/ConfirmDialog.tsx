import { useTranslation } from 'react-i18next';
import { type ConfirmDialogProps, ConfirmDialog as SharedConfirmDialog } from '../../components/ConfirmDialog.js';

/** The shared confirm dialog with this screen's cancel text and `<testId>-cancel` on its cancel button. */
export function ConfirmDialog(props: Omit<ConfirmDialogProps, 'cancelLabel' | 'cancelTestId'>) {
  const { t } = useTranslation('pricing');
  return <SharedConfirmDialog {...props} cancelLabel={t('cancel')} cancelTestId={`${props.testId}-cancel`} />;
}
