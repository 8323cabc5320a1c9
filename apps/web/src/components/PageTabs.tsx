import type { SxProps, Theme } from '@mui/material/styles';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { type ReactNode, useCallback } from 'react';
import { useSearchParams } from 'react-router';

interface PageTabsProps<T extends string> {
  tabs: readonly T[];
  value: T;
  onChange(next: T): void;
  /** What a tab shows (its translated name, or more). */
  label(tab: T): ReactNode;
  /** The screen's prefix of the tabs' test ids: `analytics` gives `analytics-tab-users`. */
  testId: string;
  /** Scroll sideways when the tabs do not fit (narrow screens); two short tabs need not. */
  scrollable?: boolean;
  sx?: SxProps<Theme>;
  tabSx?: SxProps<Theme>;
}

/** The row of tabs of a tabbed console screen. */
export function PageTabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
  testId,
  scrollable = true,
  sx,
  tabSx,
}: PageTabsProps<T>) {
  return (
    <Tabs
      value={value}
      onChange={(_event, next: T) => onChange(next)}
      {...(scrollable ? { variant: 'scrollable', allowScrollButtonsMobile: true } : {})}
      sx={sx}
    >
      {tabs.map((tab) => (
        <Tab key={tab} value={tab} label={label(tab)} data-testid={`${testId}-tab-${tab}`} sx={tabSx} />
      ))}
    </Tabs>
  );
}

/**
 * The open tab of a screen, kept in the URL's `tab` so a link opens it; the first tab is the
 * default and leaves the URL clean. `keepOthers`: the rest of the query string (a period shared by
 * the tabs) stays when switching; otherwise it goes, so each tab starts without the other's filters.
 */
export function useUrlTab<T extends string>(tabs: readonly [T, ...T[]], keepOthers: boolean): [T, (next: T) => void] {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab');
  const tab = tabs.find((candidate) => candidate === asked) ?? tabs[0];
  const first = tabs[0];
  const show = useCallback(
    (next: T) =>
      setSearch((current) => {
        const updated = new URLSearchParams(keepOthers ? current : undefined);
        if (next === first) updated.delete('tab');
        else updated.set('tab', next);
        return updated;
      }),
    [setSearch, keepOthers, first],
  );
  return [tab, show];
}
