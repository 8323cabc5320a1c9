import WorkHistoryOutlined from '@mui/icons-material/WorkHistoryOutlined';
import { type AsyncTaskView, TASK_ACTIONS, TASK_PLATFORMS, TASK_STATUSES } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterField } from '../../components/tasks/FilterBar.js';
import { type TaskFilterSetup, TaskListPage } from '../../components/tasks/TaskListPage.js';
import { useSession } from '../../hooks/useSession.js';
import { useWords } from '../../i18n/useWords.js';
import { statusKey } from '../../lib/taskStatus.js';
import { TextDialog } from './TaskDialogs.js';
import { TasksTable } from './TasksTable.js';
import { type TaskFilters, useTasks } from './task.api.js';
import { formatData, sunoLyrics } from './taskData.js';
import { taskDraft, taskFromDraft } from './taskDraft.js';
import { emptyTaskFilters, useTaskListParams } from './useTaskListParams.js';

type Opened = { kind: 'lyrics' | 'body'; task: AsyncTaskView } | null;

/** The own list ignores the channel and user filters. */
const filterSetup: TaskFilterSetup<TaskFilters> = {
  toDraft: taskDraft,
  fromDraft: taskFromDraft,
  none: emptyTaskFilters,
  adminOnly: ['channel_id', 'user_id'],
};

/** The filters of reference §1.17; channel and user only for administrators. */
function useTaskFilterFields(isAdmin: boolean): FilterField[] {
  const { t } = useTranslation('task');
  const anyValue = t('filters.any');
  return [
    {
      key: 'platform',
      label: t('filters.platform'),
      kind: 'select',
      options: [
        { value: '', label: anyValue },
        ...TASK_PLATFORMS.map((value) => ({ value, label: t(`platforms.${value}`) })),
      ],
    },
    ...(isAdmin
      ? [
          { key: 'channel_id', label: t('filters.channel_id'), kind: 'number' as const },
          { key: 'user_id', label: t('filters.user_id'), kind: 'number' as const },
        ]
      : []),
    { key: 'task_id', label: t('filters.task_id'), kind: 'text' },
    {
      key: 'action',
      label: t('filters.action'),
      kind: 'select',
      options: [{ value: '', label: anyValue }, ...TASK_ACTIONS.map((value) => ({ value, label: value }))],
    },
    {
      key: 'status',
      label: t('filters.status'),
      kind: 'select',
      options: [
        { value: '', label: anyValue },
        ...TASK_STATUSES.map((value) => ({ value, label: t(`status.${statusKey(value)}`) })),
      ],
    },
    { key: 'start', label: t('filters.start'), kind: 'datetime' },
    { key: 'end', label: t('filters.end'), kind: 'datetime' },
  ];
}

/** The Suno and Kling tasks: everyone's for administrators, the caller's own otherwise. */
export function TaskPage() {
  const { t } = useTranslation('task');
  const words = useWords('task', 'taskList');
  const { isAdmin } = useSession();
  const [params, update] = useTaskListParams();
  const tasks = useTasks(isAdmin, params);
  const [opened, setOpened] = useState<Opened>(null);
  // Keeps the last task while the dialog fades out.
  const [shown, setShown] = useState<AsyncTaskView | null>(null);
  const open = (kind: 'lyrics' | 'body') => (task: AsyncTaskView) => {
    setShown(task);
    setOpened({ kind, task });
  };
  const fields = useTaskFilterFields(isAdmin);
  const lyrics = shown ? sunoLyrics(shown.data) : null;

  return (
    <TaskListPage
      words={words}
      total={(count) => t('totalCount', { count })}
      admin={isAdmin}
      testIdPrefix="task"
      icon={WorkHistoryOutlined}
      query={tasks}
      params={params}
      onChange={update}
      fields={fields}
      filters={filterSetup}
      dialogs={
        <>
          <TextDialog
            open={opened?.kind === 'lyrics'}
            onClose={() => setOpened(null)}
            title={lyrics?.title || t('lyrics.title')}
            text={lyrics?.text ?? ''}
            code={false}
            testId="task-lyrics-dialog"
          />
          <TextDialog
            open={opened?.kind === 'body'}
            onClose={() => setOpened(null)}
            title={t('body.title', { id: shown?.task_id ?? '' })}
            text={shown ? formatData(shown.data) : ''}
            code
            testId="task-body-dialog"
          />
        </>
      }
    >
      {(table) => <TasksTable table={table} onLyrics={open('lyrics')} onBody={open('body')} />}
    </TaskListPage>
  );
}
