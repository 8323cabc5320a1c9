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

interface ListPageProps extends Omit<ListPanelProps, 'sizes'> {
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
export function ListPage({
  title,
  subtitle,
  create,
  above,
  sizes = PAGE_SIZES,
  dialogs,
  testId,
  ...panel
}: ListPageProps) {
  return (
    <Box data-testid={testId}>
      <PageHeader title={title} subtitle={subtitle} action={create && <CreateButton {...create} />} />
      {above}
      <ListPanel sizes={sizes} {...panel} />
      {dialogs}
    </Box>
  );
}
