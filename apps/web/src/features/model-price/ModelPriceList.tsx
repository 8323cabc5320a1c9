import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { UserGroupView } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { OwnerAvatar } from '../../components/OwnerAvatar.js';
import { GroupChips, ModelName, PerCallText, TokenPriceText, TypeChip } from './PriceParts.js';
import { type DisplayPrice, displayPrice, type ModelRow } from './pricing.js';

export interface ModelListProps {
  rows: ModelRow[];
  groupRatio: number;
  selectedGroup: string;
  groupMap: Record<string, UserGroupView> | undefined;
  ownerIcons: Record<string, string>;
}

function PriceCells({ price }: { price: DisplayPrice }) {
  if (price.type === 'times') {
    return (
      <TableCell colSpan={2}>
        <PerCallText price={price} testId="model-price-input" />
      </TableCell>
    );
  }
  return (
    <>
      <TableCell>
        <TokenPriceText price={price.input} testId="model-price-input" />
      </TableCell>
      <TableCell>
        <TokenPriceText price={price.output} testId="model-price-output" />
      </TableCell>
    </>
  );
}

function Owner({ owner, icon }: { owner: string; icon: string | undefined }) {
  const { t } = useTranslation('modelPrice');
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
      <OwnerAvatar name={owner} icon={icon} size={22} />
      <Typography variant="body2" noWrap data-testid="model-price-owner">
        {owner || t('unknownOwner')}
      </Typography>
    </Stack>
  );
}

/** Wide screens: one table row per model. */
export function ModelPriceTable({ rows, groupRatio, selectedGroup, groupMap, ownerIcons }: ModelListProps) {
  const { t } = useTranslation('modelPrice');
  return (
    <Card>
      <TableContainer>
        <Table size="small" aria-label={t('tableLabel')} sx={{ '& td, & th': { py: 1.5 } }}>
          <TableHead>
            <TableRow
              sx={{
                '& th': { color: 'text.secondary', fontWeight: 600, fontSize: '0.8125rem', whiteSpace: 'nowrap' },
              }}
            >
              <TableCell>{t('column.model')}</TableCell>
              <TableCell>{t('column.owner')}</TableCell>
              <TableCell>{t('column.type')}</TableCell>
              <TableCell>{t('column.input')}</TableCell>
              <TableCell>{t('column.output')}</TableCell>
              <TableCell>{t('column.groups')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.model} hover data-testid={`model-price-row-${row.model}`}>
                <TableCell sx={{ minWidth: 180 }}>
                  <ModelName model={row.model} />
                </TableCell>
                <TableCell sx={{ maxWidth: 200 }}>
                  <Owner owner={row.owner} icon={ownerIcons[row.owner]} />
                </TableCell>
                <TableCell>
                  <TypeChip type={row.type} />
                </TableCell>
                <PriceCells price={displayPrice(row.price, groupRatio)} />
                <TableCell>
                  <GroupChips groups={row.groups} selected={selectedGroup} groupMap={groupMap} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Card>
  );
}

function CardPrices({ price }: { price: DisplayPrice }) {
  const { t } = useTranslation('modelPrice');
  const label = (text: string) => (
    <Typography variant="overline" component="p" sx={{ color: 'text.secondary', lineHeight: 1.6 }}>
      {text}
    </Typography>
  );
  if (price.type === 'times') {
    return (
      <Box>
        {label(t('column.perCall'))}
        <PerCallText price={price} testId="model-price-input" />
      </Box>
    );
  }
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2 }}>
      <Box>
        {label(t('column.input'))}
        <TokenPriceText price={price.input} testId="model-price-input" />
      </Box>
      <Box>
        {label(t('column.output'))}
        <TokenPriceText price={price.output} testId="model-price-output" />
      </Box>
    </Box>
  );
}

/** Small screens: one card per model. */
export function ModelPriceCards({ rows, groupRatio, selectedGroup, groupMap, ownerIcons }: ModelListProps) {
  return (
    <Stack spacing={1.5}>
      {rows.map((row) => (
        <Card key={row.model} data-testid={`model-price-row-${row.model}`}>
          <CardContent sx={{ p: 2, '&:last-child': { pb: 2 } }}>
            <Stack spacing={1.5}>
              <Box>
                <ModelName model={row.model} />
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.75, minWidth: 0 }}>
                  <Box sx={{ minWidth: 0, flex: 1 }}>
                    <Owner owner={row.owner} icon={ownerIcons[row.owner]} />
                  </Box>
                  <TypeChip type={row.type} />
                </Stack>
              </Box>
              <Divider />
              <CardPrices price={displayPrice(row.price, groupRatio)} />
              {row.groups.length > 0 && <GroupChips groups={row.groups} selected={selectedGroup} groupMap={groupMap} />}
            </Stack>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
