import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TokenListParams } from './token.api.js';

interface AdminTokenBarProps {
  params: TokenListParams;
  update(changes: Partial<TokenListParams>): void;
}

const digitsOnly = (text: string) => text.replace(/\D/g, '').slice(0, 16);

/** The user id and key id filters of the administrators' list, applied together on submit. */
function IdFilters({ params, update }: AdminTokenBarProps) {
  const { t } = useTranslation('token');
  const [userId, setUserId] = useState(params.user_id);
  const [tokenId, setTokenId] = useState(params.token_id);
  // The URL is the truth: clearing the filters elsewhere (the empty state) empties the fields.
  useEffect(() => setUserId(params.user_id), [params.user_id]);
  useEffect(() => setTokenId(params.token_id), [params.token_id]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update({ user_id: userId, token_id: tokenId });
  };
  const field = { size: 'small', sx: { width: { xs: 'calc(50% - 4px)', sm: 130 } } } as const;
  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
      data-testid="token-admin-filters"
    >
      <TextField
        {...field}
        label={t('admin.userId')}
        value={userId}
        onChange={(event) => setUserId(digitsOnly(event.target.value))}
        slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'token-admin-user-id' } }}
      />
      <TextField
        {...field}
        label={t('admin.tokenId')}
        value={tokenId}
        onChange={(event) => setTokenId(digitsOnly(event.target.value))}
        slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'token-admin-token-id' } }}
      />
      <Button type="submit" variant="outlined" data-testid="token-admin-filter">
        {t('admin.filter')}
      </Button>
    </Box>
  );
}

/**
 * Administrators only: switches between their own keys and the keys of every user they outrank,
 * with that list's filters. Regular users never get this bar.
 */
export function AdminTokenBar({ params, update }: AdminTokenBarProps) {
  const { t } = useTranslation('token');
  const all = params.scope === 'all';
  return (
    <Stack direction="row" sx={{ px: 2, pb: 2, gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={params.scope}
        onChange={(_event, scope: TokenListParams['scope'] | null) => {
          if (scope) update({ scope, user_id: '', token_id: '' });
        }}
        aria-label={t('admin.scope')}
      >
        <ToggleButton value="own" data-testid="token-scope-own" sx={{ gap: 0.75, px: 1.25 }}>
          <PersonOutlined fontSize="small" />
          {t('admin.own')}
        </ToggleButton>
        <ToggleButton value="all" data-testid="token-scope-all" sx={{ gap: 0.75, px: 1.25 }}>
          <GroupsOutlined fontSize="small" />
          {t('admin.all')}
        </ToggleButton>
      </ToggleButtonGroup>
      {all && <IdFilters params={params} update={update} />}
    </Stack>
  );
}
