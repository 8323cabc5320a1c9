import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import type { ReactNode } from 'react';
import { describeError } from '../lib/notify.js';
import { FetchingBar } from './FetchingBar.js';
import { CreateButton } from './ListPage.js';

interface LocalListCardProps {
  /** The button above the card that adds a row. */
  create: { label: string; onClick(): void; testId: string };
  /** The query of the whole list. */
  query: { isFetching: boolean; isPending: boolean; isError: boolean; error: unknown };
  errorTestId: string;
  /** The placeholder rows while the list loads: how many, and how tall. */
  skeleton: { rows: number; height: number };
  /** The search and filters above the rows. */
  toolbar: ReactNode;
  /** Shown instead of the rows when set: nothing to show, or nothing matched. */
  empty?: ReactNode;
  /** The rows. */
  children: ReactNode;
}

/**
 * A list loaded whole and filtered in the browser (no paging, nothing in the URL): the create
 * button above, then a card with the toolbar, a progress line while it reloads, and the load
 * error, placeholder rows, empty state or the rows.
 */
export function LocalListCard({ create, query, errorTestId, skeleton, toolbar, empty, children }: LocalListCardProps) {
  let body: ReactNode = children;
  if (query.isError) {
    body = (
      <Alert severity="error" sx={{ m: 2 }} data-testid={errorTestId}>
        {describeError(query.error)}
      </Alert>
    );
  } else if (query.isPending) {
    body = (
      <Stack spacing={1} sx={{ p: 2 }}>
        {Array.from({ length: skeleton.rows }, (_, row) => row).map((row) => (
          <Skeleton key={row} variant="rounded" height={skeleton.height} />
        ))}
      </Stack>
    );
  } else if (empty) {
    body = empty;
  }
  return (
    <>
      <Stack direction="row" sx={{ mb: 2, justifyContent: 'flex-end' }}>
        <CreateButton {...create} />
      </Stack>
      <Card>
        {toolbar}
        <FetchingBar active={query.isFetching && !query.isPending} />
        <Divider />
        {body}
      </Card>
    </>
  );
}
