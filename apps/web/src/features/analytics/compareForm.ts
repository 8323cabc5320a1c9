import { MULTI_USER_MAX, splitUsernames } from '@one-hub/contracts';
import { type DayRange, type RangeProblem, rangeErrors } from './period.js';

export interface CompareDraft extends DayRange {
  usernames: string[];
  /** Text typed in the names box but not yet turned into a chip. */
  pending: string;
}

export interface CompareQuery {
  usernames: string[];
  start_time: string;
  end_time: string;
}

export type UsernamesError = 'required' | 'tooMany';

export interface CompareErrors {
  usernames?: UsernamesError;
  from?: RangeProblem;
  to?: RangeProblem;
}

/** The chips plus whatever is still typed, split on commas, without repeats. */
export function draftUsernames(draft: Pick<CompareDraft, 'usernames' | 'pending'>): string[] {
  return splitUsernames([...draft.usernames, draft.pending].join(','));
}

/**
 * Typing a comma finishes a name: every part before the last comma becomes a chip, the rest stays
 * in the box. Pasting "ann, bob, cy" therefore gives two chips and "cy" still being typed.
 */
export function absorbTyping(usernames: readonly string[], typed: string): { usernames: string[]; pending: string } {
  if (!typed.includes(',')) return { usernames: [...usernames], pending: typed };
  const parts = typed.split(',');
  const rest = parts.pop() ?? '';
  return { usernames: splitUsernames([...usernames, ...parts].join(',')), pending: rest.trimStart() };
}

export function compareErrors(draft: CompareDraft): CompareErrors {
  const names = draftUsernames(draft);
  const errors: CompareErrors = { ...rangeErrors(draft) };
  if (names.length === 0) errors.usernames = 'required';
  else if (names.length > MULTI_USER_MAX) errors.usernames = 'tooMany';
  return errors;
}

export function hasErrors(errors: CompareErrors): boolean {
  return Boolean(errors.usernames || errors.from || errors.to);
}

export function toCompareQuery(draft: CompareDraft): CompareQuery {
  return { usernames: draftUsernames(draft), start_time: draft.from, end_time: draft.to };
}

/** The query string of `multi_user_stats` and its export. */
export function compareSearch(query: CompareQuery): string {
  return new URLSearchParams({
    usernames: query.usernames.join(','),
    start_time: query.start_time,
    end_time: query.end_time,
  }).toString();
}

/** Names asked for that the server did not answer for (no such user). */
export function missingUsernames(query: CompareQuery, found: ReadonlyArray<{ username: string }>): string[] {
  const known = new Set(found.map((row) => row.username));
  return query.usernames.filter((name) => !known.has(name));
}
