import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A paged list's state kept in the URL's query string, read with `parse` and written with `write`
 * (both module-level functions). Any change that does not name a page goes back to page 1.
 */
export function useUrlListParams<P extends { page: number }>(
  parse: (search: URLSearchParams) => P,
  write: (params: P) => URLSearchParams,
): [P, (changes: Partial<P>) => void] {
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => parse(search), [parse, search]);
  const update = useCallback(
    (changes: Partial<P>) =>
      setSearch((current) => {
        const next = { ...parse(current), ...changes };
        if (changes.page === undefined) next.page = 1;
        return write(next);
      }),
    [parse, write, setSearch],
  );
  return [params, update];
}

/**
 * The last page of a list of `total` rows, `size` per page. When the current page has run past it
 * (the last row of the last page was deleted, or the URL asked for too much), `goTo` is called
 * with the last page that still has rows.
 */
export function useLastPage(
  list: { loaded: boolean; rows: number; total: number; page: number; size: number },
  goTo: (page: number) => void,
): number {
  const { loaded, rows, total, page, size } = list;
  const lastPage = Math.max(1, Math.ceil(total / size));
  useEffect(() => {
    if (loaded && rows === 0 && total > 0 && page > lastPage) goTo(lastPage);
  }, [loaded, rows, total, page, lastPage, goTo]);
  return lastPage;
}
