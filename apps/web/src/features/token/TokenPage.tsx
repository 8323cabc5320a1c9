import KeyOutlined from '@mui/icons-material/KeyOutlined';
import type { TokenView } from '@one-hub/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage.js';
import { ListToolbar } from '../../components/ListPanel.js';
import { ListNoRows } from '../../components/ListStates.js';
import { useCompact } from '../../hooks/useCompact.js';
import { useDialogSubject } from '../../hooks/useDialogSubject.js';
import { useSession } from '../../hooks/useSession.js';
import { useWords } from '../../i18n/useWords.js';
import { notify } from '../../lib/notify.js';
import { AdminTokenBar } from './AdminTokenBar.js';
import { DeleteTokenDialog, KeyCreatedDialog } from './TokenDialogs.js';
import { TokenFormDialog } from './TokenFormDialog.js';
import { TokensTable } from './TokensTable.js';
import { type TokenRow, useTokens } from './token.api.js';
import { useTokenListParams } from './useTokenListParams.js';

export function TokenPage() {
  const { t } = useTranslation('token');
  const words = useWords('token', 'list');
  const compact = useCompact('sm');
  const [params, update] = useTokenListParams();
  const search = useCallback((keyword: string) => update({ keyword }), [update]);
  const { isAdmin } = useSession();
  // Administrators may also list every user's keys; anyone else always sees their own.
  const allUsers = isAdmin && params.scope === 'all';
  const tokens = useTokens(params, allUsers);
  const formDialog = useDialogSubject<TokenRow>();
  const [deleting, setDeleting] = useState<TokenView | null>(null);
  const [created, setCreated] = useState<TokenView | null>(null);

  const idFiltered = allUsers && Boolean(params.user_id || params.token_id);
  const nowSeconds = Math.floor((tokens.dataUpdatedAt || Date.now()) / 1000);

  const openForm = (token: TokenRow | null) => {
    formDialog.show(token);
  };
  const saved = (token: TokenView, isNew: boolean) => {
    formDialog.close();
    if (isNew) setCreated(token);
    else notify.success(t('notify.saved'));
  };

  return (
    <ListPage
      title={words.title}
      subtitle={words.subtitle}
      create={{ label: words.create, onClick: () => openForm(null), testId: 'token-create' }}
      query={tokens}
      params={params}
      onChange={update}
      compact={compact}
      paginationTestId="token-pagination"
      toolbar={
        <>
          <ListToolbar
            search={{
              value: params.keyword,
              onSearch: search,
              ...words.search,
              testId: 'token-search',
              sx: { maxWidth: { sm: 320 } },
            }}
            refreshLabel={words.refresh}
            onRefresh={() => void tokens.refetch()}
            refreshTestId="token-refresh"
          />
          {isAdmin && <AdminTokenBar params={params} update={update} />}
        </>
      }
      empty={
        <ListNoRows
          icon={KeyOutlined}
          testId="token-empty"
          filtered={Boolean(params.keyword) || idFiltered}
          {...words.empty}
          noMatchDescription={
            idFiltered || (allUsers && !params.keyword)
              ? t('admin.noMatch')
              : t('empty.noMatch', { keyword: params.keyword })
          }
          clearLabel={t('empty.clearSearch')}
          onClear={() => update({ keyword: '', user_id: '', token_id: '' })}
          create={{ label: words.create, onClick: () => openForm(null) }}
        />
      }
      dialogs={
        <>
          <TokenFormDialog
            open={formDialog.open}
            session={formDialog.session}
            token={formDialog.subject}
            admin={allUsers}
            onClose={() => formDialog.close()}
            onSaved={saved}
          />
          <DeleteTokenDialog token={deleting} onClose={() => setDeleting(null)} />
          <KeyCreatedDialog token={created} onClose={() => setCreated(null)} />
        </>
      }
    >
      {(list) => (
        <TokensTable {...list} nowSeconds={nowSeconds} allUsers={allUsers} onEdit={openForm} onDelete={setDeleting} />
      )}
    </ListPage>
  );
}
