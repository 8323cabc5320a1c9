import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import { LogType, type LogView } from '@one-hub/contracts';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Quota } from '../../components/Quota.js';
import { Timestamp } from '../../components/Timestamp.js';
import {
  DetailCell,
  DurationCell,
  GroupCell,
  LogTypeChip,
  Muted,
  monospace,
  RequestIdCell,
  SpeedCell,
  TokenCount,
} from './LogCells.js';
import { ChannelCell } from './RouteDetails.js';
import { TokenBreakdown } from './TokenBreakdown.js';

interface LogsTableProps {
  logs: LogView[];
  loading: boolean;
  admin: boolean;
  order: string;
  onSort(order: string): void;
  compact: boolean;
}

interface Column {
  id: string;
  label: string;
  sortField?: string;
  align?: 'right';
  adminOnly?: boolean;
  render(log: LogView): ReactNode;
}

const PLACEHOLDERS = ['first', 'second', 'third', 'fourth', 'fifth'];

function channelText(log: LogView): string {
  if (log.channel) return `#${log.channel.id} ${log.channel.name}`;
  return log.channel_id ? `#${log.channel_id}` : '';
}

function text(value: string, testId?: string) {
  return value ? (
    <Typography variant="body2" component="span" data-testid={testId}>
      {value}
    </Typography>
  ) : (
    <Muted />
  );
}

function SortHead({ column, order, onSort }: { column: Column; order: string; onSort(order: string): void }) {
  const field = column.sortField;
  if (!field) return <TableCell align={column.align}>{column.label}</TableCell>;
  const active = order.replace(/^-/, '') === field;
  const descending = order.startsWith('-');
  const next = !active ? `-${field}` : descending ? field : '';
  return (
    <TableCell align={column.align} sortDirection={active ? (descending ? 'desc' : 'asc') : false}>
      <TableSortLabel
        active={active}
        direction={active && !descending ? 'asc' : 'desc'}
        onClick={() => onSort(next)}
        data-testid={`log-sort-${field}`}
      >
        {column.label}
      </TableSortLabel>
    </TableCell>
  );
}

/** The facts of a card, in reading order; the request id and detail take a whole line. */
const CARD_FACTS = [
  'model',
  'quota',
  'token',
  'user',
  'input',
  'output',
  'duration',
  'speed',
  'group',
  'stream',
  'channel',
  'ip',
];
const CARD_WIDE_FACTS = ['requestId', 'detail'];
/** Top-ups and account events have no model, tokens or timing. */
const CARD_OTHER_FACTS = ['quota', 'user', 'ip'];
/** A failed request: which channel failed, for what, and the error text (its detail) below. */
const CARD_ERROR_FACTS = ['model', 'channel', 'token', 'user', 'duration', 'ip'];

function cardFacts(type: number): { facts: string[]; wide: string[] } {
  if (type === LogType.consume) return { facts: CARD_FACTS, wide: CARD_WIDE_FACTS };
  if (type === LogType.error) return { facts: CARD_ERROR_FACTS, wide: CARD_WIDE_FACTS };
  return { facts: CARD_OTHER_FACTS, wide: ['detail'] };
}

function LogCard({ log, columns }: { log: LogView; columns: Column[] }) {
  const { facts, wide } = cardFacts(log.type);
  const fact = (id: string, wide: boolean) => {
    const column = columns.find((candidate) => candidate.id === id);
    if (!column) return null;
    return (
      <Box key={id} sx={{ minWidth: 0, gridColumn: wide ? '1 / -1' : undefined }}>
        <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
          {column.label}
        </Typography>
        <Box sx={{ typography: 'body2', minWidth: 0 }}>{column.render(log)}</Box>
      </Box>
    );
  };
  return (
    <Card variant="outlined" sx={{ boxShadow: 'none', p: 2 }} data-testid={`log-row-${log.id}`}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1.5 }}>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          <Timestamp value={log.created_at} />
        </Typography>
        <LogTypeChip type={log.type} testId={`log-type-${log.id}`} />
      </Stack>
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.5 }}>
        {facts.map((id) => fact(id, false))}
        {wide.map((id) => fact(id, true))}
      </Box>
    </Card>
  );
}

/** The log rows: a wide table (scrolling sideways only when the screen is too narrow for it), or cards on small screens. */
export function LogsTable({ logs, loading, admin, order, onSort, compact }: LogsTableProps) {
  const { t } = useTranslation('log');
  const [breakdown, setBreakdown] = useState<{ log: LogView; anchor: HTMLElement } | null>(null);
  const tokens = (log: LogView, side: 'input' | 'output') =>
    log.type !== LogType.consume ? (
      <Muted />
    ) : (
      <TokenCount
        value={side === 'input' ? log.prompt_tokens : log.completion_tokens}
        onOpen={(anchor) => setBreakdown({ log, anchor })}
        testId={`log-${side}-${log.id}`}
      />
    );

  const allColumns: Column[] = [
    {
      id: 'time',
      label: t('columns.time'),
      sortField: 'created_at',
      render: (log) => <Timestamp value={log.created_at} />,
    },
    {
      id: 'type',
      label: t('columns.type'),
      sortField: 'type',
      render: (log) => <LogTypeChip type={log.type} testId={`log-type-${log.id}`} />,
    },
    {
      id: 'user',
      label: t('columns.user'),
      sortField: 'user_id',
      adminOnly: true,
      render: (log) => text(log.username, `log-user-${log.id}`),
    },
    {
      id: 'token',
      label: t('columns.token'),
      sortField: 'token_name',
      render: (log) => text(log.token_name, `log-token-${log.id}`),
    },
    {
      id: 'model',
      label: t('columns.model'),
      sortField: 'model_name',
      render: (log) => text(log.model_name, `log-model-${log.id}`),
    },
    {
      id: 'channel',
      label: t('columns.channel'),
      sortField: 'channel_id',
      adminOnly: true,
      render: (log) => <ChannelCell log={log} label={channelText(log)} />,
    },
    { id: 'group', label: t('columns.group'), render: (log) => <GroupCell log={log} /> },
    {
      id: 'quota',
      label: t('columns.quota'),
      sortField: 'quota',
      align: 'right',
      render: (log) => <Quota value={log.quota} testId={`log-quota-${log.id}`} precise />,
    },
    { id: 'input', label: t('columns.input'), align: 'right', render: (log) => tokens(log, 'input') },
    { id: 'output', label: t('columns.output'), align: 'right', render: (log) => tokens(log, 'output') },
    { id: 'duration', label: t('columns.duration'), render: (log) => <DurationCell log={log} /> },
    { id: 'speed', label: t('columns.speed'), render: (log) => <SpeedCell log={log} /> },
    { id: 'requestId', label: t('columns.requestId'), render: (log) => <RequestIdCell log={log} /> },
    {
      id: 'ip',
      label: t('columns.ip'),
      sortField: 'source_ip',
      render: (log) =>
        log.source_ip ? <Box sx={{ fontFamily: monospace, fontSize: '0.8125rem' }}>{log.source_ip}</Box> : <Muted />,
    },
    { id: 'detail', label: t('columns.detail'), render: (log) => <DetailCell log={log} /> },
  ];
  const columns = allColumns.filter((column) => admin || !column.adminOnly);

  const popover = (
    <TokenBreakdown
      log={breakdown?.log ?? null}
      anchor={breakdown?.anchor ?? null}
      onClose={() => setBreakdown(null)}
    />
  );

  if (compact) {
    return (
      <Stack spacing={1.5} sx={{ p: 1.5 }} data-testid="log-list">
        {loading && logs.length === 0
          ? PLACEHOLDERS.slice(0, 3).map((key) => <Skeleton key={key} variant="rounded" height={200} />)
          : logs.map((log) => <LogCard key={log.id} log={log} columns={columns} />)}
        {popover}
      </Stack>
    );
  }

  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        // Narrower cell padding than other lists: an administrator's fifteen columns fit 1920 px with the menu open.
        sx={{ '& td, & th': { whiteSpace: 'nowrap', px: 1 }, '& tbody td': { height: 60 } }}
        data-testid="log-list"
      >
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <SortHead key={column.id} column={column} order={order} onSort={onSort} />
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {loading && logs.length === 0
            ? PLACEHOLDERS.map((key) => (
                <TableRow key={key}>
                  <TableCell colSpan={columns.length}>
                    <Skeleton variant="text" height={32} />
                  </TableCell>
                </TableRow>
              ))
            : logs.map((log) => (
                <TableRow key={log.id} hover data-testid={`log-row-${log.id}`}>
                  {columns.map((column) => (
                    <TableCell key={column.id} align={column.align}>
                      {column.render(log)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
        </TableBody>
      </Table>
      {popover}
    </TableContainer>
  );
}
