import TableCell from '@mui/material/TableCell';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { ReactNode } from 'react';

/**
 * The next value of a list's `order` parameter (`field` ascending, `-field` descending, '' none)
 * when a column's header is clicked: first descending (largest, newest first), then ascending,
 * then back to the default order.
 */
export function nextOrder(order: string, field: string): string {
  const active = order.replace(/^-/, '') === field;
  if (!active) return `-${field}`;
  return order.startsWith('-') ? field : '';
}

interface SortableHeadProps<Field extends string> {
  field: Field;
  /** The list's `order` parameter. */
  order: string;
  onSort(order: string): void;
  children: ReactNode;
  align?: 'right';
  /** `data-testid` of the sort label. */
  testId: string;
}

/** A table header that sorts the list by its column, cycling descending → ascending → none. */
export function SortableHead<Field extends string>({
  field,
  order,
  onSort,
  children,
  align,
  testId,
}: SortableHeadProps<Field>) {
  const active = order.replace(/^-/, '') === field;
  const descending = order.startsWith('-');
  return (
    <TableCell align={align} sortDirection={active ? (descending ? 'desc' : 'asc') : false}>
      <TableSortLabel
        active={active}
        direction={active && !descending ? 'asc' : 'desc'}
        onClick={() => onSort(nextOrder(order, field))}
        data-testid={testId}
      >
        {children}
      </TableSortLabel>
    </TableCell>
  );
}
