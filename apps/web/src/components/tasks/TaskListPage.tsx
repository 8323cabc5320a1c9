import Divider from '@mui/material/Divider';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import { type ComponentProps, type ComponentType, type ReactNode, useMemo } from 'react';
import { activeFilterCount, filtersOf, type Paging } from '../../hooks/listParams.js';
import { useCompact } from '../../hooks/useCompact.js';
import type { Words, wordSets } from '../../i18n/wordSets.js';
import { ListEmptyState } from '../ListEmptyState.js';
import { ListPage } from '../ListPage.js';
import { ListCountRow } from '../ListPanel.js';
import { RefreshButton } from '../RefreshButton.js';
import { FilterBar, type FilterField } from './FilterBar.js';
import type { TaskTableProps } from './TaskRows.js';

type ListPageProps = ComponentProps<typeof ListPage>;

/** How one kind's filters map to the filter bar's inputs and back. */
export interface TaskFilterSetup<Filters extends object> {
  /** The inputs' text of filters, and the filters of the inputs' text . */
  toDraft(filters: Filters): Record<string, string>;
  fromDraft(draft: Record<string, string>): Filters;
  /** No filter at all. */
  none: Filters;
  /** Filters only the list of everyone's tasks honours: a stale one in the URL of the own list must not count. */
  adminOnly: readonly (keyof Filters & string)[];
}

interface TaskListPageProps<Filters extends object, Task> extends Pick<ListPageProps, 'dialogs'> {
  /** The kind's words: `useWords('<kind>', 'taskList')`. */
  words: Words<typeof wordSets.taskList>;
  /** "N tasks": the kind's words for the count of tasks matching the filters in force. */
  total(count: number): string;
  /** Everyone's tasks (an administrator) or the caller's own. */
  admin: boolean;
  /** `data-testid`s are `${testIdPrefix}-filters`, `-total`, `-refresh`, `-empty`, `-pagination`. */
  testIdPrefix: string;
  icon: ComponentType<SvgIconProps>;
  query: ListPageProps['query'] & { data?: { data: Task[] }; refetch(): unknown };
  params: Filters & Paging;
  onChange(changes: Partial<Filters & Paging>): void;
  /** The filter inputs, and how they map to the filters (a module constant). */
  fields: readonly FilterField[];
  filters: TaskFilterSetup<Filters>;
  /** The kind's table, given the page of tasks and the list state. */
  children(table: TaskTableProps<Task>): ReactNode;
  /** Beside the refresh button: an export of what the filters show, where the kind has one. */
  countActions?: ReactNode;
}

/**
 * The screen of one kind of asynchronous task (Midjourney drawings, Suno and Kling jobs): everyone's
 * for administrators, the caller's own otherwise, with the filters applied together, the count of
 * matching tasks and the list. Each kind brings its filters, its table and its dialogs.
 */
export function TaskListPage<Filters extends object, Task>({
  words,
  total,
  admin,
  testIdPrefix,
  icon,
  query,
  params,
  onChange,
  fields,
  filters: setup,
  children,
  dialogs,
  countActions,
}: TaskListPageProps<Filters, Task>) {
  // Every kind's table turns into cards below the same width.
  const compact = useCompact('sm');
  const filters = useMemo(() => filtersOf(params), [params]);
  // The bar refills its inputs when this changes: it must keep its identity while the URL does.
  const draft = useMemo(() => setup.toDraft(filters), [setup, filters]);
  const ignored = admin ? {} : Object.fromEntries(setup.adminOnly.map((key) => [key, '']));
  const activeCount = activeFilterCount({ ...filters, ...ignored });
  const filtered = activeCount > 0;
  return (
    <ListPage
      title={words.title}
      subtitle={admin ? words.subtitle.admin : words.subtitle.own}
      query={query}
      params={params}
      onChange={onChange}
      paginationTestId={`${testIdPrefix}-pagination`}
      toolbar={
        <>
          <FilterBar
            fields={fields}
            draft={draft}
            emptyDraft={setup.toDraft(setup.none)}
            activeCount={activeCount}
            compact={compact}
            labels={words.filters}
            testIdPrefix={testIdPrefix}
            onApply={(next) => onChange({ ...setup.fromDraft(next), page: 1 } as Partial<Filters & Paging>)}
          />
          <Divider />
          <ListCountRow text={total(query.data?.total_count ?? 0)} testId={`${testIdPrefix}-total`}>
            {countActions}
            <RefreshButton
              label={words.refresh}
              onClick={() => void query.refetch()}
              testId={`${testIdPrefix}-refresh`}
            />
          </ListCountRow>
        </>
      }
      empty={
        <ListEmptyState
          icon={icon}
          title={filtered ? words.empty.noMatchTitle : words.empty.title}
          description={filtered ? words.empty.noMatch : words.empty.description}
          testId={`${testIdPrefix}-empty`}
        />
      }
      compact={compact}
      dialogs={dialogs}
    >
      {children({
        tasks: query.data?.data ?? [],
        loading: query.isLoading,
        admin,
        compact,
        order: params.order,
        onSort: (order) => onChange({ order } as Partial<Filters & Paging>),
      })}
    </ListPage>
  );
}
