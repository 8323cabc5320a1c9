import DataObjectOutlined from '@mui/icons-material/DataObjectOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { AsyncTaskView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { Timestamp } from '../../components/Timestamp.js';
import {
  ClampedText,
  Muted,
  ownerColumns,
  PlainChip,
  ProgressCell,
  type TaskColumn,
  TaskIdCell,
} from '../../components/tasks/TaskCells.js';
import { TaskRows, type TaskTableProps, taskStatusCell } from '../../components/tasks/TaskRows.js';
import { durationParts, elapsedSeconds } from '../../lib/taskStatus.js';
import { TaskResult } from './TaskResult.js';

interface TasksTableProps {
  table: TaskTableProps<AsyncTaskView>;
  onLyrics(task: AsyncTaskView): void;
  onBody(task: AsyncTaskView): void;
}

/** "Time taken" from submission to the end; a dash while the task runs. */
function Duration({ task }: { task: AsyncTaskView }) {
  const { t } = useTranslation('task');
  const seconds = elapsedSeconds(task.submit_time, task.finish_time);
  if (seconds === null) return <Muted />;
  const parts = durationParts(seconds);
  const key = parts.hours ? 'units.hours' : parts.minutes ? 'units.minutes' : 'units.seconds';
  return (
    <Typography variant="body2" component="span" data-testid={`task-duration-${task.id}`}>
      {t(key, parts)}
    </Typography>
  );
}

/** The async task rows (reference §1.17, spec "Async task"), a table on wide screens and cards on phones. */
export function TasksTable({ table, onLyrics, onBody }: TasksTableProps) {
  const { t } = useTranslation('task');
  const columns: TaskColumn<AsyncTaskView>[] = [
    {
      id: 'taskId',
      label: t('columns.taskId'),
      render: (task) => <TaskIdCell value={task.task_id} copyLabel={t('copyTaskId')} testId={`task-id-${task.id}`} />,
    },
    {
      id: 'platform',
      label: t('columns.platform'),
      sortField: 'platform',
      render: (task) => (
        <PlainChip
          label={
            task.platform === 'suno' || task.platform === 'kling' ? t(`platforms.${task.platform}`) : task.platform
          }
          color={task.platform === 'suno' ? 'secondary' : 'primary'}
          testId={`task-platform-${task.id}`}
        />
      ),
    },
    {
      id: 'action',
      label: t('columns.action'),
      render: (task) => <PlainChip label={task.action} testId={`task-action-${task.id}`} />,
    },
    { id: 'status', label: t('columns.status'), render: taskStatusCell('task') },
    {
      id: 'progress',
      label: t('columns.progress'),
      render: (task) => (
        <ProgressCell percent={task.progress} failed={task.status === 'FAILURE'} testId={`task-progress-${task.id}`} />
      ),
    },
    {
      id: 'result',
      label: t('columns.result'),
      wide: true,
      render: (task) => <TaskResult task={task} onLyrics={onLyrics} />,
    },
    {
      id: 'failReason',
      label: t('columns.failReason'),
      wide: true,
      cardHidden: (task) => task.fail_reason === '',
      render: (task) => <ClampedText text={task.fail_reason} tone="error" testId={`task-fail-${task.id}`} />,
    },
    {
      id: 'submitTime',
      label: t('columns.submitTime'),
      sortField: 'submit_time',
      render: (task) => <Timestamp value={task.submit_time} />,
    },
    {
      id: 'finishTime',
      label: t('columns.finishTime'),
      sortField: 'finish_time',
      render: (task) => (task.finish_time ? <Timestamp value={task.finish_time} /> : <Muted />),
    },
    { id: 'duration', label: t('columns.duration'), render: (task) => <Duration task={task} /> },
    ...ownerColumns<AsyncTaskView>({ channel: t('columns.channel'), user: t('columns.user') }, 'task'),
    {
      id: 'body',
      label: t('columns.body'),
      render: (task) => (
        <Tooltip title={t('body.open')}>
          <IconButton
            size="small"
            onClick={() => onBody(task)}
            aria-label={t('body.open')}
            data-testid={`task-body-${task.id}`}
          >
            <DataObjectOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
      ),
    },
  ];
  return (
    <TaskRows
      table={table}
      columns={columns}
      testIdPrefix="task"
      taskId={(task) => task.task_id}
      idColumn="taskId"
      copyIdLabel={t('copyTaskId')}
    />
  );
}
