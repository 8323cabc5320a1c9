import PaletteOutlined from '@mui/icons-material/PaletteOutlined';
import type { MidjourneyTaskView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterField } from '../../components/tasks/FilterBar.js';
import { type TaskFilterSetup, TaskListPage } from '../../components/tasks/TaskListPage.js';
import { useSession } from '../../hooks/useSession.js';
import { useWords } from '../../i18n/useWords.js';
import { ImagePreviewDialog } from './ImagePreviewDialog.js';
import { MidjourneyTable } from './MidjourneyTable.js';
import { type MidjourneyFilters, useMidjourneyTasks } from './midjourney.api.js';
import { midjourneyDraft, midjourneyFromDraft } from './midjourneyDraft.js';
import { emptyMidjourneyFilters, useMidjourneyListParams } from './useMidjourneyListParams.js';

/** The own list ignores the channel filter. */
const filterSetup: TaskFilterSetup<MidjourneyFilters> = {
  toDraft: midjourneyDraft,
  fromDraft: midjourneyFromDraft,
  none: emptyMidjourneyFilters,
  adminOnly: ['channel_id'],
};

/** The Midjourney drawings: everyone's for administrators, the caller's own otherwise. */
export function MidjourneyPage() {
  const { t } = useTranslation('midjourney');
  const words = useWords('midjourney', 'taskList');
  const { isAdmin } = useSession();
  const [params, update] = useMidjourneyListParams();
  const tasks = useMidjourneyTasks(isAdmin, params);
  const [preview, setPreview] = useState<{ open: boolean; task: MidjourneyTaskView | null }>({
    open: false,
    task: null,
  });

  const fields: FilterField[] = [
    ...(isAdmin ? [{ key: 'channel_id', label: t('filters.channel_id'), kind: 'number' as const }] : []),
    { key: 'mj_id', label: t('filters.mj_id'), kind: 'text' },
    { key: 'start', label: t('filters.start'), kind: 'datetime' },
    { key: 'end', label: t('filters.end'), kind: 'datetime' },
  ];

  return (
    <TaskListPage
      words={words}
      total={(count) => t('totalCount', { count })}
      admin={isAdmin}
      testIdPrefix="mj"
      icon={PaletteOutlined}
      query={tasks}
      params={params}
      onChange={update}
      fields={fields}
      filters={filterSetup}
      dialogs={
        <ImagePreviewDialog
          open={preview.open}
          task={preview.task}
          onClose={() => setPreview((current) => ({ ...current, open: false }))}
        />
      }
    >
      {(table) => <MidjourneyTable table={table} onPreview={(task) => setPreview({ open: true, task })} />}
    </TaskListPage>
  );
}
