import type { UserGroupView } from '@one-hub/contracts';

/**
 * The promotion group a user qualifies for after a top-up (reference §4.11): among enabled groups
 * marked `promotion`, those whose [min, max) range in dollars holds the user's cumulative recharge,
 * the one with the largest `min`. Unlike the reference, the top-up is counted once (it is already
 * in `quota` when this runs). Undefined when nothing applies or the user would not move up: a user
 * already in a promotion group with a higher or equal `min` keeps it.
 */
export function promotionTarget(
  groups: readonly UserGroupView[],
  currentGroup: string,
  cumulativeQuota: number,
  quotaPerUnit: number,
): UserGroupView | undefined {
  const promotions = groups.filter((group) => group.enable && group.promotion);
  let best: UserGroupView | undefined;
  for (const group of promotions) {
    const fitsMin = cumulativeQuota >= group.min * quotaPerUnit;
    const fitsMax = group.max === 0 || cumulativeQuota < group.max * quotaPerUnit;
    if (fitsMin && fitsMax && (!best || group.min > best.min)) best = group;
  }
  if (!best || best.symbol === currentGroup) return undefined;
  const current = promotions.find((group) => group.symbol === currentGroup);
  if (current && current.min >= best.min) return undefined;
  return best;
}
