import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import RestoreOutlined from '@mui/icons-material/RestoreOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DEFAULT_CHAT_LINKS, fillChatLinkIds, type OptionKey } from '@one-hub/contracts';
import { useTranslation } from 'react-i18next';
import { type ChatLinkRow, parseChatLinkRows } from './fieldValues.js';
import { JsonField } from './OptionFields.js';
import { useSettingsForm } from './SettingsForm.js';
import { ChangedLabel, useOptionField } from './useOptionField.js';

/** The row and field of a link the contract refused, to mark it. */
function faultOf(error: unknown): { index: number; field: string } | null {
  if (!error || typeof error !== 'object' || !('issue' in error)) return null;
  const issue = (error as { issue: { code: string; index?: number; problem?: string } }).issue;
  if (issue.code !== 'shape' || issue.index === undefined) return null;
  return { index: issue.index, field: issue.problem ?? '' };
}

/**
 * The chat links of the token list and playground (spec §3 chat link entry): name, URL with
 * `{key}` and `{server}`, shown or not, and sort (higher first). Stored as a JSON list; stored
 * text that is not a list is edited as JSON instead.
 */
export function ChatLinksEditor({ name }: { name: OptionKey }) {
  const { t } = useTranslation('setting');
  const form = useSettingsForm();
  const field = useOptionField(name);
  const rows = parseChatLinkRows(field.value);
  if (!rows) return <JsonField name={name} />;

  const fault = faultOf(form.errors[name]);
  // New rows get an id here, as the server would, so what is saved is what comes back.
  const write = (next: ChatLinkRow[]) => field.edit(JSON.stringify(fillChatLinkIds(next) ?? next));
  const change = (index: number, patch: Partial<ChatLinkRow>) =>
    write(rows.map((row, at) => (at === index ? { ...row, ...patch } : row)));
  const nextSort = rows.reduce((highest, row) => Math.max(highest, Number(row.sort) || 0), 0) + 1;

  return (
    <Box data-testid="setting-chatlinks">
      <Typography variant="subtitle2">
        <ChangedLabel label={field.label} changed={field.changed} />
      </Typography>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mb: 1.5 }}>
        {field.help}
      </Typography>
      <Stack spacing={1.5}>
        {rows.map((row, index) => {
          const bad = (part: string) => fault?.index === index && fault.field === part;
          return (
            <Box
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; their position is their identity.
              key={index}
              data-testid={`setting-chatlink-${index}`}
              sx={{
                display: 'grid',
                gap: 1.25,
                alignItems: 'center',
                // Phones: name and delete, then the URL, then sort and show. Wider: one line.
                gridTemplateColumns: { xs: '1fr auto', md: 'minmax(140px, 200px) 1fr auto auto' },
                p: { xs: 1.5, md: 0 },
                border: { xs: 1, md: 0 },
                borderColor: 'divider',
                borderRadius: 1,
              }}
            >
              <TextField
                size="small"
                label={t('chatLinks.name')}
                value={row.name}
                error={bad('name') || bad('entry')}
                onChange={(event) => change(index, { name: event.target.value })}
                sx={{ gridRow: { xs: 1, md: 'auto' }, gridColumn: { xs: 1, md: 'auto' } }}
                slotProps={{ htmlInput: { 'data-testid': `setting-chatlink-name-${index}` } }}
              />
              <TextField
                size="small"
                label={t('chatLinks.url')}
                value={row.url}
                error={bad('url')}
                onChange={(event) => change(index, { url: event.target.value })}
                sx={{ gridRow: { xs: 2, md: 'auto' }, gridColumn: { xs: '1 / -1', md: 'auto' } }}
                slotProps={{ htmlInput: { 'data-testid': `setting-chatlink-url-${index}`, spellCheck: false } }}
              />
              <Stack
                direction="row"
                spacing={1.5}
                sx={{ alignItems: 'center', gridRow: { xs: 3, md: 'auto' }, gridColumn: { xs: '1 / -1', md: 'auto' } }}
              >
                <TextField
                  size="small"
                  label={t('chatLinks.sort')}
                  value={row.sort ?? ''}
                  error={bad('sort')}
                  onChange={(event) => {
                    const text = event.target.value.trim();
                    change(index, { sort: text === '' || Number.isNaN(Number(text)) ? null : Number(text) });
                  }}
                  sx={{ width: 88 }}
                  slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': `setting-chatlink-sort-${index}` } }}
                />
                <FormControlLabel
                  label={t('chatLinks.show')}
                  sx={{ mr: 0 }}
                  control={
                    <Switch
                      size="small"
                      checked={row.show !== false}
                      onChange={(event) => change(index, { show: event.target.checked })}
                      slotProps={{ input: { 'aria-label': t('chatLinks.show') } }}
                    />
                  }
                />
              </Stack>
              <Tooltip title={t('chatLinks.remove')}>
                <IconButton
                  onClick={() => write(rows.filter((_row, at) => at !== index))}
                  aria-label={t('chatLinks.remove')}
                  data-testid={`setting-chatlink-remove-${index}`}
                  sx={{ gridRow: { xs: 1, md: 'auto' }, gridColumn: { xs: 2, md: 'auto' } }}
                >
                  <DeleteOutlineOutlined />
                </IconButton>
              </Tooltip>
            </Box>
          );
        })}
        {rows.length === 0 && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('chatLinks.none')}
          </Typography>
        )}
      </Stack>
      {field.errorText && (
        <FormHelperText error data-testid={`setting-error-${name}`}>
          {field.errorText}
        </FormHelperText>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap' }}>
        <Button
          size="small"
          startIcon={<AddOutlined />}
          onClick={() => write([...rows, { name: '', url: '', show: true, sort: nextSort }])}
          data-testid="setting-chatlink-add"
        >
          {t('chatLinks.add')}
        </Button>
        <Button
          size="small"
          color="inherit"
          startIcon={<RestoreOutlined />}
          onClick={() => write(DEFAULT_CHAT_LINKS.map((link) => ({ ...link })))}
        >
          {t('chatLinks.restore')}
        </Button>
      </Stack>
    </Box>
  );
}
