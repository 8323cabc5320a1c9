import type { ChannelView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify.js';
import { ConfirmDialog, useLastShown } from './ChannelDialogs.js';
import { useDeleteChannel, useDeleteChannels, useDeleteDisabledChannels, useTagAction } from './channel.api.js';

/** A destructive action waiting for confirmation. */
export type PendingAction =
  | { kind: 'delete'; channel: ChannelView }
  | { kind: 'deleteSelected'; ids: number[] }
  | { kind: 'deleteDisabled' }
  | { kind: 'tagDelete'; tag: string }
  | { kind: 'tagDeleteDisabled'; tag: string };

/** Asks before each delete of the channel screen, then runs it and says what happened. */
export function ChannelConfirmDialog({
  pending,
  onClose,
  onDeletedSelected,
}: {
  pending: PendingAction | null;
  onClose(): void;
  onDeletedSelected(): void;
}) {
  const { t } = useTranslation('channel');
  const shownPending = useLastShown(pending);
  const deleteOne = useDeleteChannel();
  const deleteMany = useDeleteChannels();
  const deleteDisabled = useDeleteDisabledChannels();
  const tagAction = useTagAction();

  const confirmPending = () => {
    if (!pending) return;
    const done = (message: string) => () => {
      notify.success(message);
      onClose();
    };
    switch (pending.kind) {
      case 'delete':
        deleteOne.mutate(pending.channel.id, { onSuccess: done(t('notify.deleted', { name: pending.channel.name })) });
        break;
      case 'deleteSelected':
        deleteMany.mutate(pending.ids, {
          onSuccess: (count) => {
            onDeletedSelected();
            done(t('notify.deletedMany', { count: count }))();
          },
        });
        break;
      case 'deleteDisabled':
        deleteDisabled.mutate(undefined, {
          onSuccess: (count) => done(t('notify.deletedDisabled', { count: Number(count) }))(),
        });
        break;
      case 'tagDelete':
      case 'tagDeleteDisabled': {
        const kind = pending.kind === 'tagDelete' ? 'delete' : 'deleteDisabled';
        tagAction.mutate(
          { tag: pending.tag, action: { kind } },
          { onSuccess: (count) => done(t(`notify.tag.${kind}`, { tag: pending.tag, count: Number(count ?? 0) }))() },
        );
        break;
      }
    }
  };
  const confirmPendingBusy =
    deleteOne.isPending || deleteMany.isPending || deleteDisabled.isPending || tagAction.isPending;

  const confirmTexts = (item: PendingAction | null) => {
    switch (item?.kind) {
      case 'delete':
        return { title: t('confirm.delete.title'), message: t('confirm.delete.message', { name: item.channel.name }) };
      case 'deleteSelected':
        return {
          title: t('confirm.deleteSelected.title'),
          message: t('confirm.deleteSelected.message', { count: item.ids.length }),
        };
      case 'deleteDisabled':
        return { title: t('confirm.deleteDisabled.title'), message: t('confirm.deleteDisabled.message') };
      case 'tagDelete':
        return { title: t('confirm.tagDelete.title'), message: t('confirm.tagDelete.message', { tag: item.tag }) };
      case 'tagDeleteDisabled':
        return {
          title: t('confirm.tagDeleteDisabled.title'),
          message: t('confirm.tagDeleteDisabled.message', { tag: item.tag }),
        };
      default:
        return { title: '', message: '' };
    }
  };
  const texts = confirmTexts(shownPending);

  return (
    <ConfirmDialog
      open={pending !== null}
      title={texts.title}
      message={texts.message}
      confirmLabel={t('confirm.button')}
      pending={confirmPendingBusy}
      onConfirm={confirmPending}
      onClose={onClose}
      testId="channel-confirm"
    />
  );
}
