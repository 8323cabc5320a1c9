import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ComponentProps, type ReactNode, useCallback } from 'react';
import { useLastPage } from '../hooks/useUrlListParams.js';
import { FetchingBar } from './FetchingBar.js';
import { ListPagination } from './ListPagination.js';
import { RefreshButton } from './RefreshButton.js';
import { SearchField } from './SearchField.js';

/** What a list card reads of its page query (a `useQuery` result of a paged list). */
interface ListQuery {
  data?: { data: readonly unknown[]; total_count: number };
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
}

interface ListPanelProps {
  query: ListQuery;
  /** The paging in force, kept in the URL. */
  params: { page: number; size: number };
  /** Changes the URL-kept parameters (the list's `update`; must keep its identity across renders). */
  onChange(changes: { page?: number; size?: number }): void;
  sizes: readonly number[];
  /** Narrow screens: the pager drops its first/last buttons. */
  compact: boolean;
  paginationTestId: string;
  /** What sits above the progress line: usually a `ListToolbar`. */
  toolbar: ReactNode;
  /** Shown instead of the rows when the first page could not be loaded; without it the rows show. */
  error?: ReactNode;
  /** Shown instead of the rows when the page has none. */
  empty: ReactNode;
  /** The rows (a table or cards). */
  children: ReactNode;
}

/**
 * The card of a paged list: toolbar, a progress line while it reloads, then the rows, the load
 * error or the empty state, and the pager.
 */
export function ListPanel({
  query,
  params,
  onChange,
  sizes,
  compact,
  paginationTestId,
  toolbar,
  error,
  empty,
  children,
}: ListPanelProps) {
  const rows = query.data?.data.length ?? 0;
  const total = query.data?.total_count ?? 0;
  // After deleting the last row of the last page, step back to the page that still has rows.
  const goToPage = useCallback((page: number) => onChange({ page }), [onChange]);
  const lastPage = useLastPage(
    { loaded: Boolean(query.data), rows, total, page: params.page, size: params.size },
    goToPage,
  );

  const loadingFirstPage = query.isLoading;
  const failed = query.isError && !query.data;
  const showEmpty = !loadingFirstPage && !failed && rows === 0;

  return (
    <Card>
      {toolbar}
      <FetchingBar active={query.isFetching && !loadingFirstPage} />
      <Divider />

      {failed && error ? error : showEmpty ? empty : children}

      <ListPagination
        total={total}
        page={params.page}
        lastPage={lastPage}
        size={params.size}
        sizes={sizes}
        compact={compact}
        onPage={goToPage}
        onSize={(size) => onChange({ size })}
        testId={paginationTestId}
      />
    </Card>
  );
}

interface ListToolbarProps {
  search: ComponentProps<typeof SearchField>;
  /** Filters after the search box. */
  children?: ReactNode;
  refreshLabel: string;
  onRefresh(): void;
  refreshTestId: string;
}

/** The top row of a list card: the search box and any filters on the left, the refresh button on the right. */
export function ListToolbar({ search, children, refreshLabel, onRefresh, refreshTestId }: ListToolbarProps) {
  return (
    <Stack direction="row" spacing={1} sx={{ p: 2, alignItems: 'center' }}>
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', gap: 1 }}>
        <SearchField {...search} />
        {children}
      </Box>
      <RefreshButton label={refreshLabel} onClick={onRefresh} testId={refreshTestId} />
    </Stack>
  );
}

interface ListCountRowProps {
  /** "N rows", already translated. */
  text: string;
  testId: string;
  /** The list's buttons at the right (refresh, and any other). */
  children: ReactNode;
}

/** A line under a list's filters: how many rows match them, and the list's buttons. */
export function ListCountRow({ text, testId, children }: ListCountRowProps) {
  return (
    <Stack direction="row" sx={{ px: 2, py: 0.5, alignItems: 'center', justifyContent: 'space-between' }}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid={testId}>
        {text}
      </Typography>
      <Stack direction="row" spacing={0.5}>
        {children}
      </Stack>
    </Stack>
  );
}
