import BusinessOutlined from '@mui/icons-material/BusinessOutlined';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type OwnedByView, RESERVED_OWNER_ID_MAX } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { NumberCell } from '../../components/ListTable.js';
import { LocalListCard } from '../../components/LocalListCard.js';
import { OwnerAvatar } from '../../components/OwnerAvatar.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { OwnerFormDialog } from './OwnerFormDialog.js';
import { pricesPerOwner } from './priceTable.js';
import { useDeleteOwner, useOwnedBy, usePrices } from './pricing.api.js';
import { useRowEditing } from './useRowEditing.js';

type Filter = 'all' | 'custom' | 'builtIn';

/** Model owners (makers): the built-in ones, read-only, and the administrators' own, editable. */
export function OwnersTab() {
  const { t } = useTranslation('pricing');
  const ownedBy = useOwnedBy();
  const prices = usePrices();
  const remove = useDeleteOwner();
  const [filter, setFilter] = useState<Filter>('all');
  const [search, setSearch] = useState('');
  const editing = useRowEditing<OwnedByView>({
    remove,
    nameOf: (owner) => owner.name,
    deletedText: (owner) => t('owners.deleted', { name: owner.name }),
    testIdPrefix: 'pricing-owner',
  });
  const { dialog, deleting } = editing;

  const owners = useMemo(
    () => Object.values(ownedBy.data ?? {}).sort((left, right) => left.id - right.id),
    [ownedBy.data],
  );
  const usage = useMemo(() => pricesPerOwner(prices.data ?? []), [prices.data]);
  const takenIds = useMemo(() => new Set(owners.map((owner) => owner.id)), [owners]);
  const needle = search.trim().toLowerCase();
  const visible = owners.filter((owner) => {
    const custom = owner.id > RESERVED_OWNER_ID_MAX;
    if (filter === 'custom' && !custom) return false;
    if (filter === 'builtIn' && custom) return false;
    return !needle || owner.name.toLowerCase().includes(needle) || String(owner.id) === needle;
  });
  const customCount = owners.filter((owner) => owner.id > RESERVED_OWNER_ID_MAX).length;

  return (
    <>
      <LocalListCard
        create={{ label: t('owners.create'), onClick: () => dialog.show(null), testId: 'pricing-owner-create' }}
        query={ownedBy}
        errorTestId="pricing-owner-error"
        skeleton={{ rows: 4, height: 36 }}
        toolbar={
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ p: 2, alignItems: { sm: 'center' } }}>
            <TextField
              size="small"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder={t('owners.search')}
              sx={{ maxWidth: { sm: 280 } }}
              slotProps={{ htmlInput: { 'aria-label': t('owners.search'), 'data-testid': 'pricing-owner-search' } }}
            />
            <Stack direction="row" spacing={1}>
              {(['all', 'custom', 'builtIn'] as const).map((option) => (
                <Chip
                  key={option}
                  label={t(`owners.filters.${option}`, {
                    count:
                      option === 'custom'
                        ? customCount
                        : option === 'builtIn'
                          ? owners.length - customCount
                          : owners.length,
                  })}
                  color={filter === option ? 'primary' : 'default'}
                  variant={filter === option ? 'filled' : 'outlined'}
                  onClick={() => setFilter(option)}
                  data-testid={`pricing-owner-filter-${option}`}
                />
              ))}
            </Stack>
          </Stack>
        }
        empty={
          visible.length === 0 && (
            <ListEmptyState
              icon={BusinessOutlined}
              title={filter === 'custom' && !needle ? t('owners.emptyTitle') : t('owners.noMatchTitle')}
              description={filter === 'custom' && !needle ? t('owners.empty') : t('owners.noMatch')}
              testId="pricing-owner-empty"
            />
          )
        }
      >
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small" sx={{ minWidth: 520 }} data-testid="pricing-owner-list">
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 90 }}>{t('owners.id')}</TableCell>
                <TableCell>{t('owners.name')}</TableCell>
                <TableCell align="right">{t('owners.prices')}</TableCell>
                <TableCell align="right">{t('columns.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {visible.map((owner) => {
                const custom = owner.id > RESERVED_OWNER_ID_MAX;
                return (
                  <TableRow key={owner.id} hover data-testid={`pricing-owner-row-${owner.id}`}>
                    <TableCell sx={{ fontVariantNumeric: 'tabular-nums', color: 'text.secondary' }}>
                      {owner.id}
                    </TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center' }}>
                        <OwnerAvatar name={owner.name} icon={owner.icon} size={26} />
                        <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="pricing-owner-name">
                          {owner.name}
                        </Typography>
                        {custom && <Chip size="small" variant="outlined" color="primary" label={t('owners.custom')} />}
                      </Stack>
                    </TableCell>
                    <NumberCell>{usage.get(owner.id) ?? 0}</NumberCell>
                    <TableCell align="right">
                      {custom ? (
                        editing.actions(owner)
                      ) : (
                        <Typography variant="caption" sx={{ color: 'text.disabled' }}>
                          {t('owners.readOnly')}
                        </Typography>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      </LocalListCard>

      <OwnerFormDialog
        open={dialog.open}
        session={dialog.session}
        owner={dialog.subject}
        takenIds={takenIds}
        onClose={() => dialog.close()}
        onSaved={(owner, created) =>
          editing.saved(
            created ? t('owners.created', { name: owner.name, id: owner.id }) : t('owners.saved', { name: owner.name }),
          )
        }
      />
      <ConfirmDialog
        {...editing.confirm}
        title={t('owners.deleteTitle')}
        message={
          (usage.get(deleting?.id ?? -1) ?? 0) > 0
            ? t('owners.deleteInUse', { name: deleting?.name ?? '', count: usage.get(deleting?.id ?? -1) ?? 0 })
            : t('owners.deleteMessage', { name: deleting?.name ?? '' })
        }
      />
    </>
  );
}
