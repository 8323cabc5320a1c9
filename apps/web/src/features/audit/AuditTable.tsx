import UnfoldMore from '@mui/icons-material/UnfoldMore';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AuditAction, AuditLogItem } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { RowIconButton } from '../../components/RowIconButton.js';
import { StateChip, type StateColor } from '../../components/StateChip.js';
import { Timestamp } from '../../components/Timestamp.js';
import { type RowColumn, RowsView } from '../../components/tasks/RowsView.js';
import { Muted, PlainChip } from '../../components/tasks/TaskCells.js';
import { changesSummary } from './auditSummary.js';

interface AuditTableProps {
  rows: AuditLogItem[];
  loading: boolean;
  compact: boolean;
  order: string;
  onSort(order: string): void;
  onOpen(row: AuditLogItem): void;
}

/** Removals stand out in red, switching off in amber, grants and creations in green. */
const ACTION_COLORS: Record<AuditAction, StateColor> = {
  create: 'success',
  grant: 'success',
  enable: 'success',
  update: 'info',
  move: 'info',
  promote: 'secondary',
  demote: 'secondary',
  disable: 'warning',
  cancel: 'warning',
  delete: 'error',
};

/** A name with its id after it, quiet: "root #1". */
/** A name and its id; a target named by its id (a setting's key, a model) shows it once. */
function NamedId({ name, id, testId }: { name: string; id: string | number; testId: string }) {
  return (
    <Typography variant="body2" component="span" data-testid={testId}>
      {name || <Muted />}
      {name !== String(id) && (
        <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }}>
          {' '}
          #{id}
        </Typography>
      )}
    </Typography>
  );
}

function ChangesCell({ row, onOpen }: { row: AuditLogItem; onOpen(row: AuditLogItem): void }) {
  const { t } = useTranslation('audit');
  const { text, more } = changesSummary(row.changes, t('changed'));
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', maxWidth: 480 }}>
      <Typography
        variant="body2"
        component="span"
        title={text}
        sx={{ overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 }}
        data-testid={`audit-changes-${row.id}`}
      >
        {text || <Muted />}
        {more > 0 && ` ${t('more', { count: more })}`}
      </Typography>
      {text && (
        <RowIconButton label={t('details.open')} onClick={() => onOpen(row)} testId={`audit-details-${row.id}`}>
          <UnfoldMore fontSize="small" />
        </RowIconButton>
      )}
    </Stack>
  );
}

/** The audit rows: a table on wide screens, cards on phones; the full changes open in a dialog. */
export function AuditTable({ rows, loading, compact, order, onSort, onOpen }: AuditTableProps) {
  const { t } = useTranslation('audit');
  const columns: RowColumn<AuditLogItem>[] = [
    {
      id: 'time',
      label: t('columns.time'),
      sortField: 'created_at',
      render: (row) => <Timestamp value={row.created_at} />,
    },
    {
      id: 'actor',
      label: t('columns.actor'),
      render: (row) => <NamedId name={row.actor_name} id={row.actor_id} testId={`audit-actor-${row.id}`} />,
    },
    {
      id: 'resource',
      label: t('columns.resource'),
      render: (row) => <PlainChip label={t(`resources.${row.resource}`)} testId={`audit-resource-${row.id}`} />,
    },
    {
      id: 'action',
      label: t('columns.action'),
      render: (row) => (
        <StateChip
          label={t(`actions.${row.action}`)}
          state={row.action}
          color={ACTION_COLORS[row.action] ?? 'info'}
          testId={`audit-action-${row.id}`}
        />
      ),
    },
    {
      id: 'target',
      label: t('columns.target'),
      render: (row) => <NamedId name={row.target_name} id={row.target_id} testId={`audit-target-${row.id}`} />,
    },
    {
      id: 'changes',
      label: t('columns.changes'),
      wide: true,
      render: (row) => <ChangesCell row={row} onOpen={onOpen} />,
    },
    { id: 'ip', label: t('columns.ip'), render: (row) => row.ip || <Muted /> },
  ];
  return (
    <RowsView
      rows={rows}
      columns={columns}
      rowKey={(row) => row.id}
      loading={loading}
      compact={compact}
      order={order}
      onSort={onSort}
      testIdPrefix="audit"
      cardHeader={(row) => ({
        title: (
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            <Timestamp value={row.created_at} />
          </Typography>
        ),
        badge: (
          <StateChip
            label={t(`actions.${row.action}`)}
            color={ACTION_COLORS[row.action] ?? 'info'}
            state={row.action}
          />
        ),
      })}
      cardSkip={['time', 'action']}
    />
  );
}
