import Divider from '@mui/material/Divider';
import TablePagination from '@mui/material/TablePagination';
import { useTranslation } from 'react-i18next';

interface ListPaginationProps {
  total: number;
  /** 1-based, as kept in the URL. */
  page: number;
  lastPage: number;
  size: number;
  sizes: readonly number[];
  /** Narrow screens drop the first/last page buttons. */
  compact: boolean;
  onPage(page: number): void;
  onSize(size: number): void;
  testId?: string;
}

/** The footer of a paged list card: a divider and the pager, shown once there is at least one row. */
export function ListPagination({
  total,
  page,
  lastPage,
  size,
  sizes,
  compact,
  onPage,
  onSize,
  testId,
}: ListPaginationProps) {
  const { t } = useTranslation();
  if (total <= 0) return null;
  return (
    <>
      <Divider />
      <TablePagination
        component="div"
        count={total}
        page={Math.min(page, lastPage) - 1}
        rowsPerPage={size}
        rowsPerPageOptions={[...sizes]}
        onPageChange={(_event, next) => onPage(next + 1)}
        onRowsPerPageChange={(event) => onSize(Number(event.target.value))}
        labelRowsPerPage={t('pagination.rowsPerPage')}
        labelDisplayedRows={({ from, to, count }) => t('pagination.range', { from, to, count })}
        getItemAriaLabel={(type) => t(`pagination.${type}`)}
        showFirstButton={!compact}
        showLastButton={!compact}
        data-testid={testId}
        sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end' } }}
      />
    </>
  );
}
