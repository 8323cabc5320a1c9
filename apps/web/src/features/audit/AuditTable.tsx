import UnfoldMore from '@mui/icons-material/UnfoldMore';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AuditAction, AuditLogItem } from '@one-hub/contracts';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RowIconButton } from '../../components/RowIconButton.js';
import { StateChip, type StateColor } from '../../components/StateChip.js';
import { Timestamp } from '../../components/Timestamp.js';
import { type RowColumn, RowsView } from '../../components/tasks/RowsView.js';
import { Muted, monospace, PlainChip, twoLineClamp } from '../../components/tasks/TaskCells.js';
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
  end: 'warning',
  delete: 'error',
};

/**
 * A name and its id; a target named by its id (a setting's key, a model) shows it once. In the
 * table a long name ends in an ellipsis past `width` (the whole name in its tooltip) while the id
 * stays readable, so the table still fits beside the side menu at 1400 px; a phone's card (below
 * `sm`, where the list page switches to cards) has the line to itself and shows it whole.
 */
function NamedId({ name, id, testId, width }: { name: string; id: string | number; testId: string; width: number }) {
  return (
    <Typography
      variant="body2"
      component="span"
      data-testid={testId}
      sx={{ display: { xs: 'inline', sm: 'inline-flex' }, minWidth: 0 }}
    >
      {name ? (
        <Box
          component="span"
          title={name}
          sx={{ maxWidth: { sm: width }, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: { sm: 'nowrap' } }}
        >
          {name}
        </Box>
      ) : (
        <Muted />
      )}
      {name !== String(id) && (
        <Box component="span" sx={{ color: 'text.secondary', flexShrink: 0, whiteSpace: 'pre' }}>
          {' '}
          #{id}
        </Box>
      )}
    </Typography>
  );
}

function ChangesCell({ row, onOpen }: { row: AuditLogItem; onOpen(row: AuditLogItem): void }) {
  const { t } = useTranslation('audit');
  const { text, more } = changesSummary(row.changes, t('changed'));
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', maxWidth: 420 }}>
      {/* Two lines at most, wrapped where the column ends: one long line pushed the Address column out of view. */}
      <Typography
        variant="body2"
        component="span"
        title={text}
        sx={{ ...twoLineClamp, minWidth: 180 }}
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

/**
 * The request's address in monospace, with room for 20 characters: an IPv4 address (an IPv4-mapped one
 * too) stays on one line, and a longer IPv6 one wraps after a colon onto a second line instead of
 * widening the table past the screen.
 */
function AddressCell({ ip }: { ip: string }) {
  if (!ip) return <Muted />;
  const groups: ReactNode[] = [];
  let offset = 0;
  for (const group of ip.split(/(?<=:)/)) {
    groups.push(
      <Fragment key={offset}>
        {group}
        <wbr />
      </Fragment>,
    );
    offset += group.length;
  }
  return (
    <Box
      component="span"
      sx={{
        display: 'block',
        fontFamily: monospace,
        fontSize: '0.8125rem',
        whiteSpace: 'normal',
        overflowWrap: 'anywhere',
        // One more than 20: with exactly 20 the rounding of a glyph's width can wrap a 20-character address.
        width: '21ch',
      }}
    >
      {groups}
    </Box>
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
      render: (row) => <NamedId name={row.actor_name} id={row.actor_id} testId={`audit-actor-${row.id}`} width={140} />,
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
      render: (row) => (
        <NamedId name={row.target_name} id={row.target_id} testId={`audit-target-${row.id}`} width={180} />
      ),
    },
    {
      id: 'changes',
      label: t('columns.changes'),
      wide: true,
      render: (row) => <ChangesCell row={row} onOpen={onOpen} />,
    },
    { id: 'ip', label: t('columns.ip'), render: (row) => <AddressCell ip={row.ip} /> },
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
