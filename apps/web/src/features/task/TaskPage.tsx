import WorkHistoryOutlined from '@mui/icons-material/WorkHistoryOutlined';
import { type AsyncTaskView, TASK_ACTIONS, TASK_PLATFORMS, TASK_STATUSES } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterField } from '../../components/tasks/FilterBar.js';
import { TaskListPage } from '../../components/tasks/TaskListPage.js';
import { activeFilterCount, filtersOf } from '../../hooks/listParams.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useSession } from '../../hooks/useSession.js';
import { statusKey } from '../../lib/taskStatus.js';
import { TextDialog } from './TaskDialogs.js';
import { TasksTable } from './TasksTable.js';
import { useTasks } from './task.api.js';
import { formatData, sunoLyrics } from './taskData.js';
import { taskDraft, taskFromDraft } from './taskDraft.js';
import { emptyTaskFilters, useTaskListParams } from './useTaskListParams.js';

const emptyDraft = taskDraft(emptyTaskFilters);
type Opened = { kind: 'lyrics' | 'body'; task: AsyncTaskView } | null;

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
  const compact = useCompact('sm');
  const { isAdmin } = useSession();
  const [params, update] = useTaskListParams();
  const tasks = useTasks(isAdmin, params);
  const filters = useMemo(() => filtersOf(params), [params]);
  const draft = useMemo(() => taskDraft(filters), [filters]);
  const [opened, setOpened] = useState<Opened>(null);
  // Keeps the last task while the dialog fades out.
  const [shown, setShown] = useState<AsyncTaskView | null>(null);
  const open = (kind: 'lyrics' | 'body') => (task: AsyncTaskView) => {
    setShown(task);
    setOpened({ kind, task });
  };

  const fields = useTaskFilterFields(isAdmin);
  // Channel and user filters are ignored on the own list; stale ones in the URL must not count.
  const active = activeFilterCount(isAdmin ? filters : { ...filters, channel_id: '', user_id: '' });
  const rows = tasks.data?.data ?? [];
  const lyrics = shown ? sunoLyrics(shown.data) : null;

  return (
    <TaskListPage
      texts={{
        title: t('title'),
        subtitle: isAdmin ? t('subtitleAdmin') : t('subtitle'),
        total: t('totalCount', { count: tasks.data?.total_count ?? 0 }),
        refresh: t('refresh'),
        filters: {
          apply: t('filters.apply'),
          reset: t('filters.reset'),
          show: t('filters.show'),
          hide: t('filters.hide'),
        },
        empty: {
          title: t('empty.title'),
          description: t('empty.description'),
          noMatchTitle: t('empty.noMatchTitle'),
          noMatch: t('empty.noMatch'),
        },
      }}
      testIdPrefix="task"
      icon={WorkHistoryOutlined}
      query={tasks}
      params={params}
      onChange={update}
      compact={compact}
      fields={fields}
      draft={draft}
      emptyDraft={emptyDraft}
      activeCount={active}
      onApply={(next) => update({ ...taskFromDraft(next), page: 1 })}
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
      <TasksTable
        tasks={rows}
        loading={tasks.isLoading}
        admin={isAdmin}
        compact={compact}
        order={params.order}
        onSort={(order) => update({ order })}
        onLyrics={open('lyrics')}
        onBody={open('body')}
      />
    </TaskListPage>
  );
}
