import { useState } from 'react';

export interface PendingDelete<T> {
  /** What the confirm dialog asks about; null while it is closed. */
  subject: T | null;
  /** Opens the confirm dialog about one entry. */
  ask(subject: T): void;
  cancel(): void;
  /** The user said yes: deletes, and closes the dialog once the delete has succeeded. */
  confirm(): void;
}

/**
 * A delete that waits for the user's yes in a confirm dialog. `run` deletes the entry and calls
 * `done` on success, so a failed delete leaves the dialog open to try again or cancel.
 */
export function usePendingDelete<T>(run: (subject: T, done: () => void) => void): PendingDelete<T> {
  const [subject, setSubject] = useState<T | null>(null);
  return {
    subject,
    ask: setSubject,
    cancel: () => setSubject(null),
    confirm: () => {
      if (subject !== null) run(subject, () => setSubject(null));
    },
  };
}
