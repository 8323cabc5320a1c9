import type { OwnedByView } from '@one-hub/contracts';
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
