import { useCallback, useState } from 'react';

/** A menu whose right edge lines up with its button's: the button sits at the right of a bar or a row. */
const ALIGN_RIGHT = {
  anchorOrigin: { vertical: 'bottom', horizontal: 'right' },
  transformOrigin: { vertical: 'top', horizontal: 'right' },
} as const;

/**
 * A pop-up menu opened from a button: `show` is the button's click handler, `close` shuts it, and
 * `menu` is spread into the MUI `Menu` (where it hangs, whether it is open).
 */
export function useMenuAnchor(alignRight = false) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const show = useCallback((event: { currentTarget: HTMLElement }) => setAnchor(event.currentTarget), []);
  const close = useCallback(() => setAnchor(null), []);
  const menu = { anchorEl: anchor, open: anchor !== null, onClose: close, ...(alignRight ? ALIGN_RIGHT : {}) };
  return { show, close, menu };
}
