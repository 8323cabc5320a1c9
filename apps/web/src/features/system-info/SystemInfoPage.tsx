import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListLoadError } from '../../components/ListStates.js';
import { PageHeader } from '../../components/PageHeader.js';
import { RefreshButton } from '../../components/RefreshButton.js';
import { SearchField } from '../../components/SearchField.js';
import { StateChip } from '../../components/StateChip.js';
import { formatTime } from '../../lib/format.js';
import { monospaceFontStack } from '../../theme/fonts.js';
import { useSystemLog } from './systemInfo.api.js';
import { LEVEL_FILTERS, type LevelFilter, levelColor, shownLines } from './systemLog.js';

const COUNTS = [100, 200, 500, 1000] as const;
const monospace = monospaceFontStack;

/**
 * `/panel/system_info` (root): the answering node's recent server log lines, newest first, read
 * again every few seconds while followed; filtered by level and text in the browser.
 */
export function SystemInfoPage() {
  const { t } = useTranslation('systemInfo');
  const [count, setCount] = useState<number>(200);
  const [level, setLevel] = useState<LevelFilter>('all');
  const [search, setSearch] = useState('');
  const [follow, setFollow] = useState(true);
  const log = useSystemLog(count, follow);
  const lines = shownLines(log.data ?? [], level, search);

  return (
    <Box data-testid="system-info-page">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Card>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={1.5}
          sx={{ p: 2, alignItems: { md: 'center' }, borderBottom: 1, borderColor: 'divider' }}
        >
          <SearchField
            value={search}
            onSearch={setSearch}
            placeholder={t('search')}
            label={t('search')}
            testId="system-info-search"
            sx={{ width: { xs: '100%', md: 300 }, flexShrink: 0 }}
          />
          <TextField
            select
            size="small"
            label={t('level')}
            value={level}
            onChange={(event) => setLevel(event.target.value as LevelFilter)}
            sx={{ width: { xs: '100%', md: 180 }, flexShrink: 0 }}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'system-info-level' } as object } }}
          >
            {LEVEL_FILTERS.map((choice) => (
              <MenuItem key={choice} value={choice} data-testid={`system-info-level-${choice}`}>
                {t(`levels.${choice}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('count')}
            value={count}
            onChange={(event) => setCount(Number(event.target.value))}
            sx={{ width: { xs: '100%', md: 160 }, flexShrink: 0 }}
          >
            {COUNTS.map((choice) => (
              <MenuItem key={choice} value={choice}>
                {t('lines', { count: choice })}
              </MenuItem>
            ))}
          </TextField>
          <Box sx={{ flex: 1 }} />
          <FormControlLabel
            control={
              <Switch
                checked={follow}
                onChange={(_event, checked) => setFollow(checked)}
                slotProps={{ input: { 'aria-label': t('follow') } }}
                data-testid="system-info-follow"
              />
            }
            label={t('follow')}
            sx={{ whiteSpace: 'nowrap', mr: 0 }}
          />
          <RefreshButton label={t('refresh')} onClick={() => void log.refetch()} testId="system-info-refresh" />
        </Stack>
        {log.isError && !log.data && (
          <ListLoadError error={log.error} onRetry={() => void log.refetch()} testId="system-info-error" />
        )}
        <TableContainer>
          <Table size="small" data-testid="system-info-lines">
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 180 }}>{t('columns.time')}</TableCell>
                <TableCell sx={{ width: 90 }}>{t('columns.level')}</TableCell>
                <TableCell>{t('columns.message')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((line) => (
                <TableRow key={line.key} data-testid="system-info-line">
                  <TableCell sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums', verticalAlign: 'top' }}>
                    {formatTime(Math.floor(Date.parse(line.Timestamp) / 1000))}
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>
                    <StateChip label={line.Level} state={line.Level} color={levelColor(line.Level)} />
                  </TableCell>
                  <TableCell
                    sx={{ fontFamily: monospace, fontSize: '0.8rem', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  >
                    {line.Message}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {log.data && lines.length === 0 && (
          <Typography sx={{ p: 3, color: 'text.secondary', textAlign: 'center' }} data-testid="system-info-empty">
            {t('empty')}
          </Typography>
        )}
      </Card>
    </Box>
  );
}
