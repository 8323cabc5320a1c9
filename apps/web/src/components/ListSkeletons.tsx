import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';

/** Stable keys for placeholders, which have no identity of their own. */
const PLACEHOLDERS = ['first', 'second', 'third', 'fourth', 'fifth'];

/** Five placeholder rows of a table whose first page is loading. */
export function SkeletonRows({ columns }: { columns: number }) {
  return PLACEHOLDERS.map((key) => (
    <TableRow key={key}>
      <TableCell colSpan={columns}>
        <Skeleton variant="text" height={36} />
      </TableCell>
    </TableRow>
  ));
}

interface CardListProps {
  /** `data-testid` of the list (the same as the table's on wide screens). */
  testId: string;
  /** The first page is loading: three placeholder cards of `skeletonHeight` instead of the cards. */
  loading: boolean;
  skeletonHeight: number;
  children: ReactNode;
}

/** A list's rows as a column of cards, for narrow screens. */
export function CardList({ testId, loading, skeletonHeight, children }: CardListProps) {
  return (
    <Stack spacing={1.5} sx={{ p: 1.5 }} data-testid={testId}>
      {loading
        ? PLACEHOLDERS.slice(0, 3).map((key) => <Skeleton key={key} variant="rounded" height={skeletonHeight} />)
        : children}
    </Stack>
  );
}
