import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { MidjourneyTaskView } from '@one-hub/contracts';
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
  twoLineClamp,
} from '../../components/tasks/TaskCells.js';
import { TaskRows, type TaskTableProps, taskStatusCell } from '../../components/tasks/TaskRows.js';
import { progressPercent } from '../../lib/taskStatus.js';
import { ImageThumb } from './ImageThumb.js';

interface MidjourneyTableProps {
  table: TaskTableProps<MidjourneyTaskView>;
  onPreview(task: MidjourneyTaskView): void;
}

/** The prompt as written, and the English one the proxy sent to Midjourney under it, both cut to two lines. */
function PromptCell({ task }: { task: MidjourneyTaskView }) {
  const { t } = useTranslation('midjourney');
  if (!task.prompt && !task.prompt_en) return <Muted />;
  const whole = (
    <Box sx={{ whiteSpace: 'pre-wrap', maxHeight: 320, overflow: 'auto' }}>
      {task.prompt}
      {task.prompt_en && task.prompt_en !== task.prompt ? `\n\n${t('promptEn')}: ${task.prompt_en}` : ''}
    </Box>
  );
  return (
    <Tooltip title={whole}>
      <Box
        sx={{ minWidth: { xs: 0, sm: 200 }, maxWidth: { xs: 'none', sm: 280 } }}
        data-testid={`mj-prompt-${task.id}`}
      >
        <Typography variant="body2" sx={twoLineClamp}>
          {task.prompt || task.prompt_en}
        </Typography>
        {task.prompt_en && task.prompt_en !== task.prompt && (
          <Typography variant="caption" sx={{ ...twoLineClamp, color: 'text.secondary', WebkitLineClamp: 1 }}>
            {task.prompt_en}
          </Typography>
        )}
      </Box>
    </Tooltip>
  );
}

/** The Midjourney rows (spec "Midjourney task"), a table on wide screens and cards on phones. */
export function MidjourneyTable({ table, onPreview }: MidjourneyTableProps) {
  const { t } = useTranslation('midjourney');
  const columns: TaskColumn<MidjourneyTaskView>[] = [
    {
      id: 'mjId',
      label: t('columns.mjId'),
      sortField: 'mj_id',
      render: (task) => <TaskIdCell value={task.mj_id} copyLabel={t('copyId')} testId={`mj-id-${task.id}`} />,
    },
    {
      id: 'action',
      label: t('columns.action'),
      sortField: 'action',
      render: (task) => <PlainChip label={task.action} testId={`mj-action-${task.id}`} />,
    },
    { id: 'status', label: t('columns.status'), sortField: 'status', render: taskStatusCell('mj') },
    {
      id: 'progress',
      label: t('columns.progress'),
      render: (task) => (
        <ProgressCell
          percent={progressPercent(task.progress)}
          failed={task.status === 'FAILURE'}
          testId={`mj-progress-${task.id}`}
        />
      ),
    },
    {
      id: 'image',
      label: t('columns.image'),
      render: (task) => (
        <ImageThumb
          mjId={task.mj_id}
          src={task.image_src}
          onOpen={() => onPreview(task)}
          testId={`mj-image-${task.id}`}
        />
      ),
    },
    { id: 'prompt', label: t('columns.prompt'), wide: true, render: (task) => <PromptCell task={task} /> },
    {
      id: 'failReason',
      label: t('columns.failReason'),
      wide: true,
      cardHidden: (task) => task.fail_reason === '',
      render: (task) => <ClampedText text={task.fail_reason} tone="error" testId={`mj-fail-${task.id}`} width={200} />,
    },
    {
      id: 'submitTime',
      label: t('columns.submitTime'),
      sortField: 'submit_time',
      render: (task) => <Timestamp value={Math.floor(task.submit_time / 1000)} />,
    },
    ...ownerColumns<MidjourneyTaskView>({ channel: t('columns.channel'), user: t('columns.user') }, 'mj'),
  ];
  return (
    <TaskRows
      table={table}
      columns={columns}
      testIdPrefix="mj"
      taskId={(task) => task.mj_id}
      idColumn="mjId"
      copyIdLabel={t('copyId')}
    />
  );
}
