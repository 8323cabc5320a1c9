import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { ComponentProps, ReactNode } from 'react';
import { PAGE_SIZES } from '../hooks/listParams.js';
import { ListPanel } from './ListPanel.js';
import { PageHeader } from './PageHeader.js';

interface CreateButtonProps {
  label: string;
  onClick(): void;
  testId: string;
  /** The icon before the label; a plus unless said otherwise. */
  icon?: ReactNode;
}

/** The main button of a screen's title row: it creates a new row of the list. */
export function CreateButton({ label, onClick, testId, icon }: CreateButtonProps) {
  return (
    <Button
      variant="contained"
      startIcon={icon ?? <Add />}
      onClick={onClick}
      data-testid={testId}
      sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
    >
      {label}
    </Button>
  );
}

type ListPanelProps = ComponentProps<typeof ListPanel>;

/** What a list screen's table is given by `ListPage`: the page's rows and the list state it shows them in. */
export interface ListRows<Row> {
  rows: Row[];
  /** The first page is still loading: skeleton rows. */
  loading: boolean;
  order: string;
  onSort(order: string): void;
  /** Cards instead of a table (narrow screens). */
  compact: boolean;
}

interface ListPageProps<Row> extends Omit<ListPanelProps, 'sizes' | 'children' | 'query' | 'params' | 'onChange'> {
  query: ListPanelProps['query'] & { data?: { data: Row[] } };
  /** The list state kept in the URL. */
  params: ListPanelProps['params'] & { order?: string };
  onChange(changes: { page?: number; size?: number; order?: string }): void;
  /** The rows: a table or cards, or a function of the rows and list state that gives them. */
  children: ReactNode | ((list: ListRows<Row>) => ReactNode);
  title: string;
  subtitle: ReactNode;
  /** The page's main button ("create …") at the right of the title; none when left out. */
  create?: CreateButtonProps;
  /** What stands between the title and the list (a status card). */
  above?: ReactNode;
  /** The page sizes offered; the common ones unless the list says otherwise. */
  sizes?: readonly number[];
  /** The page's dialogs, after the list. */
  dialogs?: ReactNode;
  testId?: string;
}

/**
 * The shell of a console list screen: the title row with its main button, then the list card
 * (toolbar, progress line, rows or the empty or error state, pager), then the screen's dialogs.
 * The filters, paging and order live in the URL (`useUrlListParams`); `params` and `onChange` are its.
 */
export function ListPage<Row>({
  title,
  subtitle,
  create,
  above,
  sizes = PAGE_SIZES,
  dialogs,
  testId,
  children,
  ...panel
}: ListPageProps<Row>) {
  const { query, params, onChange, compact } = panel;
  const rows =
    typeof children === 'function'
      ? children({
          rows: query.data?.data ?? [],
          loading: query.isLoading,
          order: params.order ?? '',
          onSort: (order) => onChange({ order }),
          compact,
        })
      : children;
  return (
    <Box data-testid={testId}>
      <PageHeader title={title} subtitle={subtitle} action={create && <CreateButton {...create} />} />
      {above}
      <ListPanel sizes={sizes} {...panel}>
        {rows}
      </ListPanel>
      {dialogs}
    </Box>
  );
}
