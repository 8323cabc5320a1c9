import Stack from '@mui/material/Stack';
import { useEffect, useRef, useState } from 'react';
import { useTopUsers } from './analytics.api.js';
import { CompareUsersCard } from './CompareUsersCard.js';
import type { CompareDraft } from './compareForm.js';
import type { DayRange } from './period.js';
import { TopUsersCard } from './TopUsersCard.js';

/** Suggestions for the comparison's names box: the period's heaviest users. */
const SUGGESTED_USERS = 50;

/** Usage by user: the period's top users, and named users compared over two dates. */
export function UsersTab({ range }: { range: DayRange }) {
  const [draft, setDraft] = useState<CompareDraft>({ usernames: [], pending: '', ...range });
  const compareRef = useRef<HTMLDivElement>(null);
  const suggestions = useTopUsers(range, 'quota', SUGGESTED_USERS);
  // A new period also becomes the comparison's dates; they can still be changed by hand afterwards.
  useEffect(() => setDraft((current) => ({ ...current, from: range.from, to: range.to })), [range]);

  const addToComparison = (username: string) => {
    setDraft((current) =>
      current.usernames.includes(username) ? current : { ...current, usernames: [...current.usernames, username] },
    );
    compareRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  return (
    <Stack spacing={2.5} data-testid="analytics-users">
      <TopUsersCard range={range} onCompare={addToComparison} />
      <div ref={compareRef}>
        <CompareUsersCard
          draft={draft}
          onDraft={setDraft}
          suggestions={(suggestions.data?.users ?? []).map((row) => row.username).filter(Boolean)}
        />
      </div>
    </Stack>
  );
}
