import Divider from '@mui/material/Divider';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { ComponentProps, ComponentType } from 'react';
import { ListEmptyState } from '../ListEmptyState.js';
import { ListPage } from '../ListPage.js';
import { ListCountRow } from '../ListPanel.js';
import { RefreshButton } from '../RefreshButton.js';
import { FilterBar, type FilterBarLabels, type FilterField } from './FilterBar.js';

type ListPageProps = ComponentProps<typeof ListPage>;

export interface TaskListTexts {
  title: string;
  subtitle: string;
  /** "N tasks" of the filters in force. */
  total: string;
  refresh: string;
  filters: FilterBarLabels;
  /** The empty state when there are no tasks at all, and when none matched the filters. */
  empty: { title: string; description: string; noMatchTitle: string; noMatch: string };
}

interface TaskListPageProps extends Pick<ListPageProps, 'params' | 'onChange' | 'compact' | 'children' | 'dialogs'> {
  /** The screen's words, from the kind's own translations. */
  texts: TaskListTexts;
  /** `data-testid`s are `${testIdPrefix}-filters`, `-total`, `-refresh`, `-empty`, `-pagination`. */
  testIdPrefix: string;
  icon: ComponentType<SvgIconProps>;
  query: ListPageProps['query'] & { refetch(): unknown };
  fields: readonly FilterField[];
  /** The inputs' text of the filters in force, and of no filter. */
  draft: Record<string, string>;
  emptyDraft: Record<string, string>;
  /** Filters in use that the list honours (an administrator's filter on the own list does not count). */
  activeCount: number;
  onApply(draft: Record<string, string>): void;
}

/**
 * The screen of one kind of asynchronous task (Midjourney drawings, Suno and Kling jobs): everyone's
 * for administrators, the caller's own otherwise, with the filters applied together, the count of
 * matching tasks and the list. Each kind brings its filters, its table and its dialogs.
 */
export function TaskListPage({
  texts,
  testIdPrefix,
  icon,
  query,
  fields,
  draft,
  emptyDraft,
  activeCount,
  onApply,
  ...page
}: TaskListPageProps) {
  const filtered = activeCount > 0;
  return (
    <ListPage
      title={texts.title}
      subtitle={texts.subtitle}
      query={query}
      paginationTestId={`${testIdPrefix}-pagination`}
      toolbar={
        <>
          <FilterBar
            fields={fields}
            draft={draft}
            emptyDraft={emptyDraft}
            activeCount={activeCount}
            compact={page.compact}
            labels={texts.filters}
            testIdPrefix={testIdPrefix}
            onApply={onApply}
          />
          <Divider />
          <ListCountRow text={texts.total} testId={`${testIdPrefix}-total`}>
            <RefreshButton
              label={texts.refresh}
              onClick={() => void query.refetch()}
              testId={`${testIdPrefix}-refresh`}
            />
          </ListCountRow>
        </>
      }
      empty={
        <ListEmptyState
          icon={icon}
          title={filtered ? texts.empty.noMatchTitle : texts.empty.title}
          description={filtered ? texts.empty.noMatch : texts.empty.description}
          testId={`${testIdPrefix}-empty`}
        />
      }
      {...page}
    />
  );
}
