import type { ModelInfoView, OwnedByView } from '@one-hub/contracts';
import { providerRegistry } from '../../domain/channel-types/registry.js';

/**
 * Who makes the models a price belongs to, keyed by the provider's channel type id (a price's
 * `channel_type`): the registry entries that name an owner.
 */
export const MODEL_OWNERS: Readonly<Record<string, OwnedByView>> = Object.freeze(
  Object.fromEntries(
    [...providerRegistry.values()].flatMap((provider) =>
      provider.owner
        ? [[String(provider.type), Object.freeze({ id: provider.type, name: provider.owner, icon: '' })]]
        : [],
    ),
  ),
);

/**
 * What is known about models: who makes them (the built-in owners, plus the administrators' own
 * once a directory is set) and the administrators' model information.
 */
export interface OwnerDirectory {
  ownedBy(): Promise<Readonly<Record<string, OwnedByView>>>;
  /** From memory: listings call it once per model. */
  ownerName(channelType: number): string | undefined;
  /** Fills that memory; run with the prices' own load at start-up. */
  load?(): Promise<void>;
  /** Model information rows; price listings embed them. */
  infos?(): Promise<readonly ModelInfoView[]>;
}

export const builtInOwners: OwnerDirectory = {
  ownedBy: async () => MODEL_OWNERS,
  ownerName: (channelType) => MODEL_OWNERS[String(channelType)]?.name,
};
