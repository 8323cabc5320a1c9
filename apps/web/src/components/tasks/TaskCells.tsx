import ContentCopy from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { copyToClipboard } from '../../lib/clipboard.js';
import { statusColor, statusKey } from '../../lib/taskStatus.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { StateChip } from '../StateChip.js';
import type { RowColumn } from './RowsView.js';

/** The theme's monospace stack, under the name this feature's cells use. */
export const monospace = monospaceFontStack;

/** The dash of an empty cell. */
export function Muted() {
  return (
    <Box component="span" sx={{ color: 'text.disabled' }}>
      –
    </Box>
  );
}

/** A task's id in monospace, cut short with the whole id in its tooltip, and a copy button. */
export function TaskIdCell({ value, copyLabel, testId }: { value: string; copyLabel: string; testId: string }) {
  const { t } = useTranslation('task');
  if (!value) return <Muted />;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.25, minWidth: 0 }}>
      <Typography
        variant="body2"
        noWrap
        title={value}
        sx={{ fontFamily: monospace, fontSize: '0.8125rem', maxWidth: 150 }}
        data-testid={testId}
      >
        {value}
      </Typography>
      <Tooltip title={copyLabel}>
        <IconButton size="small" aria-label={copyLabel} onClick={() => void copyToClipboard(value, t('taskId'))}>
          <ContentCopy sx={{ fontSize: 14 }} />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

/** A task's state, coloured by how it ended (or that it has not yet). */
export function TaskStatusChip({ status, label, testId }: { status: string; label: string; testId: string }) {
  return <StateChip label={label} state={status} color={statusColor(status)} testId={testId} />;
}

/** A task's state in the async tasks' words, which every kind of task shares. */
export function TaskStatus({ status, testId }: { status: string; testId: string }) {
  const { t } = useTranslation('task');
  return <TaskStatusChip status={status} label={t(`status.${statusKey(status)}`)} testId={testId} />;
}

/** Plain text, or the dash when there is none. */
export function PlainText({ value, testId }: { value: string; testId: string }) {
  return value ? (
    <Typography variant="body2" component="span" data-testid={testId}>
      {value}
    </Typography>
  ) : (
    <Muted />
  );
}

/** A column a task list shows only to administrators. */
export type TaskColumn<Row> = RowColumn<Row> & { adminOnly?: boolean };

/**
 * The channel and user columns of a task list (administrators only), as `#id`. Their `data-testid`s
 * are `${testIdPrefix}-channel-<id>` and `${testIdPrefix}-user-<id>`.
 */
export function ownerColumns<Row extends { id: number; channel_id?: number; user_id?: number }>(
  labels: { channel: string; user: string },
  testIdPrefix: string,
): TaskColumn<Row>[] {
  const idText = (id: number | undefined) => (id ? `#${id}` : '');
  return [
    {
      id: 'channel',
      label: labels.channel,
      sortField: 'channel_id',
      adminOnly: true,
      render: (task) => <PlainText value={idText(task.channel_id)} testId={`${testIdPrefix}-channel-${task.id}`} />,
    },
    {
      id: 'user',
      label: labels.user,
      sortField: 'user_id',
      adminOnly: true,
      render: (task) => <PlainText value={idText(task.user_id)} testId={`${testIdPrefix}-user-${task.id}`} />,
    },
  ];
}

/** A neutral outlined chip: the action (IMAGINE, MUSIC, text2video…) or the platform. */
export function PlainChip({
  label,
  testId,
  color,
}: {
  label: string;
  testId?: string;
  color?: 'primary' | 'secondary';
}) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={color ?? 'default'}
      label={label}
      data-testid={testId}
      sx={{ height: 22, fontSize: '0.75rem', fontWeight: 600 }}
    />
  );
}

/** Progress as a thin bar with the percentage beside it. */
export function ProgressCell({ percent, failed, testId }: { percent: number; failed: boolean; testId: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 110 }} data-testid={testId}>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={failed ? 'error' : percent >= 100 ? 'success' : 'primary'}
        sx={{ flex: 1, height: 6, borderRadius: 3 }}
      />
      <Typography variant="caption" sx={{ fontVariantNumeric: 'tabular-nums', minWidth: 34, textAlign: 'right' }}>
        {`${percent}%`}
      </Typography>
    </Box>
  );
}

/** Text wrapped anywhere and cut to two lines with an ellipsis (`WebkitLineClamp` changes the count). */
export const twoLineClamp = {
  whiteSpace: 'normal',
  overflowWrap: 'anywhere',
  display: '-webkit-box',
  WebkitLineClamp: 2,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
} as const;

/** Long text cut to two lines in the table; the whole text is in the tooltip. */
export function ClampedText({
  text,
  tone,
  testId,
  width = 240,
}: {
  text: string;
  tone?: 'error';
  testId?: string;
  width?: number;
}) {
  if (!text) return <Muted />;
  return (
    <Tooltip title={<Box sx={{ whiteSpace: 'pre-wrap', maxHeight: 320, overflow: 'auto' }}>{text}</Box>}>
      <Typography
        variant="body2"
        data-testid={testId}
        sx={{
          color: tone === 'error' ? 'error.main' : 'text.primary',
          // In a table the cell may not shrink below a readable width; a phone's card gives it the line.
          minWidth: { xs: 0, sm: Math.min(width, 160) },
          maxWidth: width,
          ...twoLineClamp,
        }}
      >
        {text}
      </Typography>
    </Tooltip>
  );
}
