import { parsePaging, writePaging } from '../../hooks/listParams.js';
import { useUrlListParams } from '../../hooks/useUrlListParams.js';
import type { TokenListParams } from './token.api.js';

/** Columns the server lets the list be ordered by (reference §1.7). */
export const TOKEN_SORT_FIELDS = [
  'name',
  'status',
  'remain_quota',
  'used_quota',
  'created_time',
  'expired_time',
] as const;
export type TokenSortField = (typeof TOKEN_SORT_FIELDS)[number];

/** A positive whole number as typed, or '' (an id filter left empty or mistyped is no filter). */
function idText(text: string | null): string {
  const trimmed = (text ?? '').trim();
  return /^[1-9]\d{0,15}$/.test(trimmed) ? trimmed : '';
}

/** Reads the list state from the query string, ignoring values the server would refuse. */
export function parseTokenListParams(search: URLSearchParams): TokenListParams {
  return {
    keyword: search.get('keyword') ?? '',
    ...parsePaging(search, TOKEN_SORT_FIELDS),
    scope: search.get('scope') === 'all' ? 'all' : 'own',
    user_id: idText(search.get('user_id')),
    token_id: idText(search.get('token_id')),
  };
}

/** Writes only what differs from the defaults, so a plain visit keeps a clean URL. */
export function tokenListSearch(params: TokenListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.keyword) search.set('keyword', params.keyword);
  writePaging(search, params);
  // The id filters only mean something in the administrators' list of every user's keys.
  if (params.scope === 'all') {
    search.set('scope', 'all');
    if (params.user_id) search.set('user_id', params.user_id);
    if (params.token_id) search.set('token_id', params.token_id);
  }
  return search;
}

/** The token list state kept in the URL; a change of keyword, order or size goes back to page 1. */
export function useTokenListParams(): [TokenListParams, (changes: Partial<TokenListParams>) => void] {
  return useUrlListParams(parseTokenListParams, tokenListSearch);
}
