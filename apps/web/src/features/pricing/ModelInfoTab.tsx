import Add from '@mui/icons-material/Add';
import ArrowForward from '@mui/icons-material/ArrowForward';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
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
import { type ModelInfoView, parseModelInfoList } from '@one-hub/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmptyState } from '../../components/ListEmptyState.js';
import { NumberCell } from '../../components/ListTable.js';
import { LocalListCard } from '../../components/LocalListCard.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { ModelInfoFormDialog } from './ModelInfoFormDialog.js';
import { ModelText } from './PriceParts.js';
import { useDeleteModelInfo, useModelInfos } from './pricing.api.js';
import { useRowEditing } from './useRowEditing.js';

const countFormat = new Intl.NumberFormat('en-US');

function Count({ value }: { value: number }) {
  if (!value) {
    return (
      <Typography variant="body2" component="span" sx={{ color: 'text.disabled' }}>
        —
      </Typography>
    );
  }
  return <>{countFormat.format(value)}</>;
}

function Modalities({ info }: { info: ModelInfoView }) {
  const { t } = useTranslation('pricing');
  const label = (items: string[]) =>
    items.map((item) => t(`info.modalities.${item}`, { defaultValue: item })).join(', ') || '—';
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', whiteSpace: 'nowrap' }}>
      <span>{label(parseModelInfoList(info.input_modalities))}</span>
      <ArrowForward sx={{ fontSize: 14, color: 'text.disabled' }} />
      <span>{label(parseModelInfoList(info.output_modalities))}</span>
    </Stack>
  );
}

/** Model information: display names, limits, modalities and tags, one entry per model. */
export function ModelInfoTab() {
  const { t } = useTranslation('pricing');
  const infos = useModelInfos();
  const remove = useDeleteModelInfo();
  const [search, setSearch] = useState('');
  const editing = useRowEditing<ModelInfoView>({
    remove,
    nameOf: (info) => info.model,
    deletedText: (info) => t('info.deleted', { model: info.model }),
    testIdPrefix: 'pricing-info',
  });
  const { dialog } = editing;

  const all = infos.data ?? [];
  const takenModels = useMemo(() => new Set(all.map((info) => info.model)), [all]);
  const needle = search.trim().toLowerCase();
  const visible = all.filter(
    (info) => !needle || info.model.toLowerCase().includes(needle) || info.name.toLowerCase().includes(needle),
  );

  return (
    <>
      <LocalListCard
        create={{ label: t('info.create'), onClick: () => dialog.show(null), testId: 'pricing-info-create' }}
        query={infos}
        errorTestId="pricing-info-error"
        skeleton={{ rows: 3, height: 44 }}
        toolbar={
          <Stack direction="row" spacing={1.5} sx={{ p: 2, alignItems: 'center', justifyContent: 'space-between' }}>
            <TextField
              size="small"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder={t('info.search')}
              sx={{ flex: 1, maxWidth: 320 }}
              slotProps={{ htmlInput: { 'aria-label': t('info.search'), 'data-testid': 'pricing-info-search' } }}
            />
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="pricing-info-count">
              {t('info.count', { count: visible.length })}
            </Typography>
          </Stack>
        }
        empty={
          visible.length === 0 && (
            <ListEmptyState
              icon={InfoOutlined}
              title={needle ? t('info.noMatchTitle') : t('info.emptyTitle')}
              description={needle ? t('info.noMatch') : t('info.empty')}
              action={
                needle ? undefined : (
                  <Button variant="outlined" startIcon={<Add />} onClick={() => dialog.show(null)}>
                    {t('info.create')}
                  </Button>
                )
              }
              testId="pricing-info-empty"
            />
          )
        }
      >
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small" sx={{ minWidth: 860, '& td, & th': { px: 1.5 } }} data-testid="pricing-info-list">
            <TableHead>
              <TableRow>
                <TableCell>{t('info.model')}</TableCell>
                <TableCell>{t('info.name')}</TableCell>
                <TableCell align="right">{t('info.contextLength')}</TableCell>
                <TableCell align="right">{t('info.maxTokens')}</TableCell>
                <TableCell>{t('info.modalitiesColumn')}</TableCell>
                <TableCell>{t('info.tags')}</TableCell>
                <TableCell align="right">{t('columns.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {visible.map((info) => (
                <TableRow key={info.id} hover data-testid={`pricing-info-row-${info.model}`}>
                  <TableCell sx={{ maxWidth: 240 }}>
                    <ModelText model={info.model} />
                  </TableCell>
                  <TableCell sx={{ maxWidth: 260 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="pricing-info-name">
                      {info.name}
                    </Typography>
                    {info.description && (
                      <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }} noWrap>
                        {info.description}
                      </Typography>
                    )}
                  </TableCell>
                  <NumberCell testId="pricing-info-context">
                    <Count value={info.context_length} />
                  </NumberCell>
                  <NumberCell>
                    <Count value={info.max_tokens} />
                  </NumberCell>
                  <TableCell>
                    <Modalities info={info} />
                  </TableCell>
                  <TableCell sx={{ maxWidth: 220 }}>
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                      {parseModelInfoList(info.tags).map((tag) => (
                        <Chip key={tag} size="small" label={tag} variant="outlined" />
                      ))}
                    </Box>
                  </TableCell>
                  <TableCell align="right">{editing.actions(info)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </LocalListCard>

      <ModelInfoFormDialog
        open={dialog.open}
        session={dialog.session}
        info={dialog.subject}
        takenModels={takenModels}
        onClose={() => dialog.close()}
        onSaved={(info, created) =>
          editing.saved(created ? t('info.created', { model: info.model }) : t('info.saved', { model: info.model }))
        }
      />
      <ConfirmDialog
        {...editing.confirm}
        title={t('info.deleteTitle')}
        message={t('info.deleteMessage', { model: editing.deleting?.model ?? '' })}
      />
    </>
  );
}
