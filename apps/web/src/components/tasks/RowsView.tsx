import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { CardList, SkeletonRows } from '../ListSkeletons.js';
import { SortableHead } from '../SortableHead.js';

/** One column of a task list; `wide` cells take a whole line of a card on narrow screens. */
export interface RowColumn<Row> {
  id: string;
  label: string;
  /** The `order` field a click on the heading sorts by. */
  sortField?: string;
  wide?: boolean;
  /** Left out of a phone's card for this row (an empty failure reason, say). */
  cardHidden?(row: Row): boolean;
  render(row: Row): ReactNode;
}

interface RowsViewProps<Row> {
  rows: readonly Row[];
  columns: readonly RowColumn<Row>[];
  rowKey(row: Row): number;
  loading: boolean;
  compact: boolean;
  order: string;
  onSort(order: string): void;
  /** `data-testid`s: `${testIdPrefix}-list`, `${testIdPrefix}-row-<id>`, `${testIdPrefix}-sort-<field>`. */
  testIdPrefix: string;
  /** The top line of a card: its id on the left, its status on the right. */
  cardHeader(row: Row): { title: ReactNode; badge: ReactNode };
  /** Columns already shown in the card's top line. */
  cardSkip: readonly string[];
}

function RowCardView<Row>({
  row,
  columns,
  header,
  testId,
}: {
  row: Row;
  columns: readonly RowColumn<Row>[];
  header: { title: ReactNode; badge: ReactNode };
  testId: string;
}) {
  return (
    <Card variant="outlined" sx={{ boxShadow: 'none', p: 2 }} data-testid={testId}>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1.5 }}>
        <Box sx={{ minWidth: 0 }}>{header.title}</Box>
        {header.badge}
      </Stack>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: 1.5 }}>
        {columns
          .filter((column) => !column.cardHidden?.(row))
          .map((column) => (
            <Box key={column.id} sx={{ minWidth: 0, gridColumn: column.wide ? '1 / -1' : undefined }}>
              <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
                {column.label}
              </Typography>
              <Box sx={{ typography: 'body2', minWidth: 0, overflowWrap: 'anywhere' }}>{column.render(row)}</Box>
            </Box>
          ))}
      </Box>
    </Card>
  );
}

/** A task list's rows: a table scrolling sideways when the screen is too narrow for it, or cards on phones. */
export function RowsView<Row>(props: RowsViewProps<Row>) {
  const { rows, columns, rowKey, loading, compact, order, onSort, testIdPrefix } = props;
  const firstLoad = loading && rows.length === 0;
  if (compact) {
    const cardColumns = columns.filter((column) => !props.cardSkip.includes(column.id));
    return (
      <CardList testId={`${testIdPrefix}-list`} loading={firstLoad} skeletonHeight={220}>
        {rows.map((row) => (
          <RowCardView
            key={rowKey(row)}
            row={row}
            columns={cardColumns}
            header={props.cardHeader(row)}
            testId={`${testIdPrefix}-row-${rowKey(row)}`}
          />
        ))}
      </CardList>
    );
  }
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        sx={{ '& td, & th': { whiteSpace: 'nowrap', px: 1.25 }, '& tbody td': { height: 64 } }}
        data-testid={`${testIdPrefix}-list`}
      >
        <TableHead>
          <TableRow>
            {columns.map((column) =>
              column.sortField ? (
                <SortableHead
                  key={column.id}
                  field={column.sortField}
                  order={order}
                  onSort={onSort}
                  testId={`${testIdPrefix}-sort-${column.sortField}`}
                >
                  {column.label}
                </SortableHead>
              ) : (
                <TableCell key={column.id}>{column.label}</TableCell>
              ),
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {firstLoad ? (
            <SkeletonRows columns={columns.length} />
          ) : (
            rows.map((row) => (
              <TableRow key={rowKey(row)} hover data-testid={`${testIdPrefix}-row-${rowKey(row)}`}>
                {columns.map((column) => (
                  <TableCell key={column.id}>{column.render(row)}</TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
