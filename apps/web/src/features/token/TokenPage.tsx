import Add from '@mui/icons-material/Add';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { TokenView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FetchingBar } from '../../components/FetchingBar.js';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { ListPagination } from '../../components/ListPagination.js';
import { PageHeader } from '../../components/PageHeader.js';
import { RefreshButton } from '../../components/RefreshButton.js';
import { SearchField } from '../../components/SearchField.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { useLastPage } from '../../hooks/useUrlListParams.js';
import { notify } from '../../lib/notify.js';
import { DeleteTokenDialog, KeyCreatedDialog } from './TokenDialogs.js';
import { TokenFormDialog } from './TokenFormDialog.js';
import { TokensTable } from './TokensTable.js';
import { useTokens } from './token.api.js';
import { TOKEN_PAGE_SIZES, useTokenListParams } from './useTokenListParams.js';

export function TokenPage() {
  const { t } = useTranslation('token');
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [params, update] = useTokenListParams();
  const search = useCallback((keyword: string) => update({ keyword }), [update]);
  const tokens = useTokens(params);
  const formDialog = useDialogSubject<TokenView>();
  const [deleting, setDeleting] = useState<TokenView | null>(null);
  const [created, setCreated] = useState<TokenView | null>(null);

  const rows = tokens.data?.data ?? [];
  const total = tokens.data?.total_count ?? 0;
  const nowSeconds = Math.floor((tokens.dataUpdatedAt || Date.now()) / 1000);

  // After deleting the last key of the last page, step back to the page that still has keys.
  const goToPage = useCallback((page: number) => update({ page }), [update]);
  const lastPage = useLastPage(
    { loaded: Boolean(tokens.data), rows: rows.length, total, page: params.page, size: params.size },
    goToPage,
  );

  const openForm = (token: TokenView | null) => {
    formDialog.show(token);
  };
  const saved = (token: TokenView, isNew: boolean) => {
    formDialog.close();
    if (isNew) setCreated(token);
    else notify.success(t('notify.saved'));
  };

  const loadingFirstPage = tokens.isLoading;
  const empty = !loadingFirstPage && rows.length === 0 && !tokens.isError;

  return (
    <Box>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        action={
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => openForm(null)}
            data-testid="token-create"
            sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
          >
            {t('create')}
          </Button>
        }
      />

      <Card>
        <Stack direction="row" spacing={1} sx={{ p: 2, alignItems: 'center' }}>
          <Box sx={{ flex: 1, minWidth: 0, display: 'flex' }}>
            <SearchField
              value={params.keyword}
              onSearch={search}
              placeholder={t('searchPlaceholder')}
              label={t('searchLabel')}
              testId="token-search"
              sx={{ maxWidth: { sm: 320 } }}
            />
          </Box>
          <RefreshButton label={t('refresh')} onClick={() => void tokens.refetch()} testId="token-refresh" />
        </Stack>
        <FetchingBar active={tokens.isFetching && !loadingFirstPage} />
        <Divider />

        {empty ? (
          <ListEmptyState
            icon={KeyOutlined}
            title={params.keyword ? t('empty.noMatchTitle') : t('empty.title')}
            description={params.keyword ? t('empty.noMatch', { keyword: params.keyword }) : t('empty.description')}
            action={
              params.keyword ? (
                <Button onClick={() => update({ keyword: '' })}>{t('empty.clearSearch')}</Button>
              ) : (
                <Button variant="outlined" startIcon={<Add />} onClick={() => openForm(null)}>
                  {t('create')}
                </Button>
              )
            }
            testId="token-empty"
          />
        ) : (
          <TokensTable
            tokens={rows}
            loading={loadingFirstPage}
            order={params.order}
            onSort={(order) => update({ order })}
            nowSeconds={nowSeconds}
            compact={compact}
            onEdit={openForm}
            onDelete={setDeleting}
          />
        )}

        <ListPagination
          total={total}
          page={params.page}
          lastPage={lastPage}
          size={params.size}
          sizes={TOKEN_PAGE_SIZES}
          compact={compact}
          onPage={goToPage}
          onSize={(size) => update({ size })}
          testId="token-pagination"
        />
      </Card>

      <TokenFormDialog
        open={formDialog.open}
        session={formDialog.session}
        token={formDialog.subject}
        onClose={() => formDialog.close()}
        onSaved={saved}
      />
      <DeleteTokenDialog token={deleting} onClose={() => setDeleting(null)} />
      <KeyCreatedDialog token={created} onClose={() => setCreated(null)} />
    </Box>
  );
}
