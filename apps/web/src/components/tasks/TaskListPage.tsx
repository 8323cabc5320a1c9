import Divider from '@mui/material/Divider';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { ComponentProps, ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmptyState } from '../ListEmptyState.js';
import { ListPage } from '../ListPage.js';
import { ListCountRow } from '../ListPanel.js';
import { RefreshButton } from '../RefreshButton.js';
import { FilterBar, type FilterField } from './FilterBar.js';

type ListPageProps = ComponentProps<typeof ListPage>;

interface TaskListPageProps extends Pick<ListPageProps, 'params' | 'onChange' | 'compact' | 'children' | 'dialogs'> {
  /**
   * The translation namespace of the kind of task. It holds the same keys for every kind: title,
   * subtitle(Admin), totalCount, refresh, filters.apply/reset/show/hide and empty.*.
   */
  namespace: string;
  /** `data-testid`s are `${testIdPrefix}-filters`, `-total`, `-refresh`, `-empty`, `-pagination`. */
  testIdPrefix: string;
  icon: ComponentType<SvgIconProps>;
  admin: boolean;
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
  namespace,
  testIdPrefix,
  icon,
  admin,
  query,
  fields,
  draft,
  emptyDraft,
  activeCount,
  onApply,
  ...page
}: TaskListPageProps) {
  const { t } = useTranslation(namespace);
  const filtered = activeCount > 0;
  return (
    <ListPage
      title={t('title')}
      subtitle={admin ? t('subtitleAdmin') : t('subtitle')}
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
            labels={{
              apply: t('filters.apply'),
              reset: t('filters.reset'),
              show: t('filters.show'),
              hide: t('filters.hide'),
            }}
            testIdPrefix={testIdPrefix}
            onApply={onApply}
          />
          <Divider />
          <ListCountRow
            text={t('totalCount', { count: query.data?.total_count ?? 0 })}
            testId={`${testIdPrefix}-total`}
          >
            <RefreshButton
              label={t('refresh')}
              onClick={() => void query.refetch()}
              testId={`${testIdPrefix}-refresh`}
            />
          </ListCountRow>
        </>
      }
      empty={
        <ListEmptyState
          icon={icon}
          title={filtered ? t('empty.noMatchTitle') : t('empty.title')}
          description={filtered ? t('empty.noMatch') : t('empty.description')}
          testId={`${testIdPrefix}-empty`}
        />
      }
      {...page}
    />
  );
}
