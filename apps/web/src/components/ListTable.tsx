import type { Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';
import { CardList, SkeletonRows } from './ListSkeletons.js';
import { SortableHead } from './SortableHead.js';

/** The actions stay in view while a narrow table scrolls sideways. */
export const stickyEnd = {
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: (theme: Theme) => `inset 1px 0 0 ${theme.palette.divider}`,
} as const;

/** A cell holding a figure: right-aligned, in digits of one width so a column's figures line up. */
export function NumberCell({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid={testId}>
      {children}
    </TableCell>
  );
}

/** The first cell of a row: its id, quiet and in digits of one width. */
export function IdCell({ id }: { id: number }) {
  return <TableCell sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>{id}</TableCell>;
}

/** The last cell of a row (or of the header): the row's actions, pinned to the right edge. */
export function ActionsCell({ children }: { children: ReactNode }) {
  return (
    <TableCell align="right" sx={stickyEnd}>
      {children}
    </TableCell>
  );
}

/** A column heading; clicking it sorts the list when it names a `field`. */
export interface ListColumn<Field extends string> {
  label: string;
  field?: Field;
  align?: 'right';
}

interface ColumnHeadsProps<Field extends string> {
  columns: readonly ListColumn<Field>[];
  /** The list's `order` parameter. */
  order: string;
  onSort(order: string): void;
  /** The sort labels' `data-testid`s are `${testIdPrefix}-${field}`. */
  testIdPrefix: string;
}

/** The header cells of a table's columns, sortable ones with their sort label. */
export function ColumnHeads<Field extends string>({ columns, order, onSort, testIdPrefix }: ColumnHeadsProps<Field>) {
  return columns.map(({ label, field, align }) =>
    field ? (
      <SortableHead
        key={field}
        field={field}
        order={order}
        onSort={onSort}
        align={align}
        testId={`${testIdPrefix}-${field}`}
      >
        {label}
      </SortableHead>
    ) : (
      <TableCell key={label} align={align}>
        {label}
      </TableCell>
    ),
  );
}

interface ListTableProps {
  /** `data-testid` of the table, and of the card list on narrow screens. */
  testId: string;
  /** The first page is loading: placeholders instead of the rows or cards. */
  loading: boolean;
  /** Cards instead of a table (narrow screens). */
  compact: boolean;
  cards: ReactNode;
  /** Height of a placeholder card. */
  cardHeight: number;
  /** Below this width the table scrolls sideways. */
  minWidth: number;
  /** The header cells before the actions column. */
  head: ReactNode;
  actionsLabel: string;
  /** How many columns there are, actions included (for the placeholder rows). */
  columns: number;
  /** The table rows. */
  children: ReactNode;
}

/** A list's rows: a table with a pinned actions column on wide screens, cards on narrow ones. */
export function ListTable({
  testId,
  loading,
  compact,
  cards,
  cardHeight,
  minWidth,
  head,
  actionsLabel,
  columns,
  children,
}: ListTableProps) {
  if (compact) {
    return (
      <CardList testId={testId} loading={loading} skeletonHeight={cardHeight}>
        {cards}
      </CardList>
    );
  }
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" sx={{ minWidth, '& td, & th': { whiteSpace: 'nowrap', px: 1.5 } }} data-testid={testId}>
        <TableHead>
          <TableRow>
            {head}
            <ActionsCell>{actionsLabel}</ActionsCell>
          </TableRow>
        </TableHead>
        <TableBody>{loading ? <SkeletonRows columns={columns} /> : children}</TableBody>
      </Table>
    </TableContainer>
  );
}
