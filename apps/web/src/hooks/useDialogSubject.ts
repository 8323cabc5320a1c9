import { useCallback, useMemo, useRef, useState } from 'react';

export interface DialogSubject<T> {
  open: boolean;
  /** What the dialog is about (null: create); kept after closing so the dialog can fade out. */
  subject: T | null;
  /** Changes on every opening, to key the dialog's form so it starts afresh; null before the first. */
  session: number | null;
  show(subject: T | null): void;
  close(): void;
}

/** The state of a create/edit dialog: its subject, whether it is open, and an id per opening. */
export function useDialogSubject<T>(): DialogSubject<T> {
  const [state, setState] = useState<{ subject: T | null; session: number | null; open: boolean }>({
    subject: null,
    session: null,
    open: false,
  });
  const openings = useRef(0);
  const show = useCallback((subject: T | null) => {
    openings.current += 1;
    setState({ subject, session: openings.current, open: true });
  }, []);
  const close = useCallback(() => setState((current) => ({ ...current, open: false })), []);
  return useMemo(() => ({ ...state, show, close }), [state, show, close]);
}
