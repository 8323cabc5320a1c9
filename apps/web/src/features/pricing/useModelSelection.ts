import { useEffect, useState } from 'react';

/**
 * The models ticked in the price list. Models that no longer have a price (deleted here or
 * elsewhere) leave the selection.
 */
export function useModelSelection(existing: ReadonlySet<string>) {
  const [selected, setSelected] = useState<Set<string>>(new Set());

  useEffect(() => {
    setSelected((current) => {
      const kept = [...current].filter((model) => existing.has(model));
      return kept.length === current.size ? current : new Set(kept);
    });
  }, [existing]);

  const toggle = (model: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(model)) next.add(model);
      return next;
    });
  const toggleMany = (models: readonly string[], select: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const model of models) {
        if (select) next.add(model);
        else next.delete(model);
      }
      return next;
    });

  return { selected, setSelected, toggle, toggleMany };
}
