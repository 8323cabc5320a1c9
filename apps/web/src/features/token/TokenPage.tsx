import Add from '@mui/icons-material/Add';
import KeyOutlined from '@mui/icons-material/KeyOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { TokenView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPanel, ListToolbar } from '../../components/ListPanel.js';
import { ListNoRows } from '../../components/ListStates.js';
import { PageHeader } from '../../components/PageHeader.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
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

  const nowSeconds = Math.floor((tokens.dataUpdatedAt || Date.now()) / 1000);

  const openForm = (token: TokenView | null) => {
    formDialog.show(token);
  };
  const saved = (token: TokenView, isNew: boolean) => {
    formDialog.close();
    if (isNew) setCreated(token);
    else notify.success(t('notify.saved'));
  };

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

      <ListPanel
        query={tokens}
        params={params}
        onChange={update}
        sizes={TOKEN_PAGE_SIZES}
        compact={compact}
        paginationTestId="token-pagination"
        toolbar={
          <ListToolbar
            search={{
              value: params.keyword,
              onSearch: search,
              placeholder: t('searchPlaceholder'),
              label: t('searchLabel'),
              testId: 'token-search',
              sx: { maxWidth: { sm: 320 } },
            }}
            refreshLabel={t('refresh')}
            onRefresh={() => void tokens.refetch()}
            refreshTestId="token-refresh"
          />
        }
        empty={
          <ListNoRows
            icon={KeyOutlined}
            testId="token-empty"
            filtered={Boolean(params.keyword)}
            title={t('empty.title')}
            description={t('empty.description')}
            noMatchTitle={t('empty.noMatchTitle')}
            noMatchDescription={t('empty.noMatch', { keyword: params.keyword })}
            clearLabel={t('empty.clearSearch')}
            onClear={() => update({ keyword: '' })}
            create={{ label: t('create'), onClick: () => openForm(null) }}
          />
        }
      >
        <TokensTable
          tokens={tokens.data?.data ?? []}
          loading={tokens.isLoading}
          order={params.order}
          onSort={(order) => update({ order })}
          nowSeconds={nowSeconds}
          compact={compact}
          onEdit={openForm}
          onDelete={setDeleting}
        />
      </ListPanel>

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
