import { useCallback } from 'react';
import { useCompact } from '../hooks/useCompact.js';
import { type DialogSubject, useDialogSubject } from '../hooks/useDialogSubject.js';
import type { Words, wordSets } from '../i18n/wordSets.js';
import { notify } from '../lib/notify.js';

/** A paged list's query as a list screen reads it (a `useQuery` result). */
interface PageQuery<Row> {
  data?: { data: Row[]; total_count: number };
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  error: unknown;
  refetch(): unknown;
}

interface ListPageSetup<Row, P, K extends keyof P> {
  /** The prefix of the screen's test ids: `plan` gives `plan-search`, `plan-refresh`, `plan-empty`, … */
  id: string;
  /** The screen's `list` word set (`useWords(namespace, 'list')`). */
  words: Words<(typeof wordSets)['list']>;
  /** The list state kept in the URL and its `update` (a `useXListParams()` result). */
  list: readonly [P, (changes: Partial<P>) => void];
  query: PageQuery<Row>;
  /** The URL parameter the search box writes. */
  searchKey: K;
  /** Below this width the rows are cards; `md` unless said otherwise. */
  compactBelow?: 'sm' | 'md';
}

/**
 * The props a paged list card (`ListPanel`, or `ListPage` around it) takes from the list's URL
 * state and query: the paging, the card width and the pager's test id (`<id>-pagination`).
 */
export function useListPanel<Q, P>(
  id: string,
  [params, update]: readonly [P, (changes: Partial<P>) => void],
  query: Q,
  compactBelow: 'sm' | 'md' = 'md',
) {
  const compact = useCompact(compactBelow);
  return { query, params, onChange: update, compact, paginationTestId: `${id}-pagination` };
}

/**
 * The list state and handlers every `ListPage` screen with a search box wires the same way: the
 * props of the page, its toolbar, its load error and empty state, and the create/edit dialog's
 * subject. A screen spreads them and adds only what is its own (filters, columns, dialogs).
 */
export function useListPage<Row, P extends { page: number; size: number; order?: string }, K extends keyof P>({
  id,
  words,
  list: [params, update],
  query,
  searchKey,
  compactBelow = 'md',
}: ListPageSetup<Row, P, K>) {
  const panel = useListPanel(id, [params, update], query, compactBelow);
  const form: DialogSubject<Row> = useDialogSubject<Row>();
  const onSearch = useCallback((value: string) => update({ [searchKey]: value } as Partial<P>), [update, searchKey]);
  const refetch = () => void query.refetch();
  const openCreate = () => form.show(null);
  return {
    params,
    update,
    form,
    /** Spread into `ListPage`. */
    page: {
      title: words.title,
      subtitle: words.subtitle,
      create: { label: words.create, onClick: openCreate, testId: `${id}-create` },
      ...panel,
    },
    /** Spread into `ListToolbar`; a screen may widen `search` with its own `sx`. */
    toolbar: {
      search: { value: String(params[searchKey] ?? ''), onSearch, ...words.search, testId: `${id}-search` },
      refreshLabel: words.refresh,
      onRefresh: refetch,
      refreshTestId: `${id}-refresh`,
    },
    /** Spread into `ListLoadError`. */
    loadError: { error: query.error, onRetry: refetch, testId: `${id}-load-error` },
    /** Spread into `ListNoRows`, before what differs (filtered, clear button). */
    noRows: { testId: `${id}-empty`, ...words.empty, create: { label: words.create, onClick: openCreate } },
    /** Spread into the create/edit dialog, beside its subject (`form.subject`). */
    formDialog: { open: form.open, session: form.session, onClose: form.close },
    /** Closes the create/edit dialog and says what was saved. */
    saved(message: string) {
      form.close();
      notify.success(message);
    },
  };
}
