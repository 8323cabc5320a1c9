import { mapModel } from '../../domain/model-mapping.js';
import { OPEN_ROUTE_BODY_LIMIT_BYTES, type RelayHttpRequest } from '../../http/relay-front.js';
import { primaryGroupOf, type RelayCaller } from '../access/keys.js';
import { insufficientQuota, KEY_SHORT, USER_SHORT } from '../billing/ledger.js';
import { reservationQuota } from '../billing/quota.js';
import { unpricedModelRefusal } from '../billing/unpriced.js';
import type { RelayDeps } from './types.js';

/**
 * A caller whose balance cannot pay for the cheapest request it could make is, as far as bodies go,
 * a stranger: the relay reads no more of its body than of an unauthenticated one, and answers a
 * larger body with the 429 `insufficient_quota` it would get after reading it. Decided from the
 * headers alone: the balance is the key's owner's as cached with the key (a top-up refreshes it at
 * once; spending only lowers it, so it errs towards reading) or this node's ledger when lower; what
 * the caller's running requests hold still counts, as a request may wait for it (reservation.ts). The
 * check costs one comparison for a caller holding at least PreConsumedQuota (what a request with no
 * output limit holds for its answer until the node has learned the model's); for the others the
 * least any request could hold is looked up, sized as the relay sizes reservations (reservation.ts):
 * one prompt token and no answer, since a client may ask for a one-token answer and a model's
 * learned answers may be empty. A caller that can reach a free model is never capped.
 */
export type FundingDeps = Pick<RelayDeps, 'ledger' | 'options' | 'router' | 'prices' | 'groups'>;

/** Sets `request.bodyCap` when the caller cannot pay for any request; see the file comment. */
export function capUnfundedBody(deps: FundingDeps, caller: RelayCaller, request: RelayHttpRequest): void {
  const preConsumed = deps.options.getNumber('PreConsumedQuota');
  const userBalance = Math.min(Number(caller.user.quota), deps.ledger.knownBalance?.(caller.user.id) ?? Infinity);
  const keyBalance = caller.unlimited ? Infinity : Number(caller.token.remain_quota);
  const balance = Math.min(userBalance, keyBalance);
  if (balance > 0 && balance >= preConsumed) return;
  if (balance >= cheapestRequest(deps, caller)) return;
  request.bodyCap = {
    bytes: OPEN_ROUTE_BODY_LIMIT_BYTES,
    error: insufficientQuota(keyBalance < userBalance ? KEY_SHORT : USER_SHORT),
  };
}

/** The least any request of this caller reserves: 0 when it can reach a free model or one no list names. */
function cheapestRequest(deps: FundingDeps, caller: RelayCaller): number {
  const rule = caller.setting.limits.limit_model_setting;
  const groups = [primaryGroupOf(caller), caller.token.backup_group].filter(
    (group): group is string => Boolean(group) && deps.groups.enabled(group as string) !== undefined,
  );
  let cheapest = Infinity;
  for (const group of groups) {
    const offers = deps.router.offersOf(group);
    if (!offers) continue;
    if (offers.wildcards) return 0;
    const groupRatio = deps.groups.enabled(group)?.ratio ?? 1;
    for (const [model, channels] of offers.models) {
      if (rule.enabled && !rule.models.includes(model)) continue;
      for (const channel of channels) {
        const billed = mapModel(channel, model).billedModel;
        const price = deps.prices.lookup(billed);
        if (unpricedModelRefusal(deps.options, price, billed)) continue;
        // One prompt token and no answer: the smallest request a priced model is reserved for.
        const quota = reservationQuota({
          price,
          groupRatio,
          promptTokens: 1,
          completionTokens: 0,
          preConsumedQuota: 0,
        });
        if (quota <= 0) return 0;
        cheapest = Math.min(cheapest, quota);
      }
    }
  }
  return cheapest;
}
