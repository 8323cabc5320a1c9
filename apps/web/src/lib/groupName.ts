/**
 * The first start creates the group `default` named "默认分组" (as the reference does, and as
 * imports from it bring along). Until an administrator renames it, that stored name is shown in
 * the reader's language; any other name is the administrator's own words and is shown as typed.
 */
export const SEEDED_DEFAULT_GROUP = { symbol: 'default', name: '默认分组' } as const;

export interface NamedGroup {
  symbol: string;
  name: string;
}

/** The name to show for a group: the translated default for the untouched seed, else its name, else its symbol. */
export function groupDisplayName(group: NamedGroup | undefined, symbol: string, translatedDefault: string): string {
  if (!group) return symbol;
  if (group.symbol === SEEDED_DEFAULT_GROUP.symbol && group.name.trim() === SEEDED_DEFAULT_GROUP.name) {
    return translatedDefault;
  }
  return group.name || group.symbol;
}
