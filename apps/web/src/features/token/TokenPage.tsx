import KeyOutlined from '@mui/icons-material/KeyOutlined';
import type { TokenView } from '@one-hub/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '../../components/ListPage.js';
import { ListToolbar } from '../../components/ListPanel.js';
import { ListNoRows } from '../../components/ListStates.js';
import { useListPage } from '../../components/useListPage.js';
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
  const listParams = useTokenListParams();
  const { isAdmin } = useSession();
  // Administrators may also list every user's keys; anyone else always sees their own.
  const allUsers = isAdmin && listParams[0].scope === 'all';
  const tokens = useTokens(listParams[0], allUsers);
  const { params, update, form, ...list } = useListPage({
    id: 'token',
    words,
    list: listParams,
    query: tokens,
    searchKey: 'keyword',
    compactBelow: 'sm',
  });
  const [deleting, setDeleting] = useState<TokenView | null>(null);
  const [created, setCreated] = useState<TokenView | null>(null);

  const idFiltered = allUsers && Boolean(params.user_id || params.token_id);
  const nowSeconds = Math.floor((tokens.dataUpdatedAt || Date.now()) / 1000);

  const openForm = (token: TokenRow | null) => {
    form.show(token);
  };
  const saved = (token: TokenView, isNew: boolean) => {
    form.close();
    if (isNew) setCreated(token);
    else notify.success(t('notify.saved'));
  };

  return (
    <ListPage
      {...list.page}
      toolbar={
        <>
          <ListToolbar {...list.toolbar} search={{ ...list.toolbar.search, sx: { maxWidth: { sm: 320 } } }} />
          {isAdmin && <AdminTokenBar params={params} update={update} />}
        </>
      }
      empty={
        <ListNoRows
          {...list.noRows}
          icon={KeyOutlined}
          filtered={Boolean(params.keyword) || idFiltered}
          noMatchDescription={
            idFiltered || (allUsers && !params.keyword)
              ? t('admin.noMatch')
              : t('empty.noMatch', { keyword: params.keyword })
          }
          clearLabel={t('empty.clearSearch')}
          onClear={() => update({ keyword: '', user_id: '', token_id: '' })}
        />
      }
      dialogs={
        <>
          <TokenFormDialog {...list.formDialog} token={form.subject} admin={allUsers} onSaved={saved} />
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
