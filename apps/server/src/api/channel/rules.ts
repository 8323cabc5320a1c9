import { splitChannelList } from '@one-hub/contracts';
import { isRelayable, providerByType } from '../../domain/channel-types/registry.js';
import { AppError } from '../../platform/errors.js';
import type { ChannelRepository } from './repo.js';

/** The parts of a channel whose validity depends on its type or on other tables. */
export interface ChannelShape {
  type: number;
  base_url: string;
  other: string;
  group: string;
}

/** Rules the shared schemas cannot check alone: the provider registry and the user groups. */
export async function checkChannelRules(
  repo: ChannelRepository,
  channels: ChannelShape[],
  options: { checkType: boolean; checkGroups: boolean },
): Promise<void> {
  if (options.checkType) {
    for (const channel of channels) checkAgainstProvider(channel);
  }
  if (options.checkGroups) {
    const symbols = [...new Set(channels.flatMap((channel) => splitChannelList(channel.group)))];
    const missing = await repo.missingGroups(symbols);
    if (missing.length > 0) {
      throw AppError.badRequest(
        `${missing.map((symbol) => `'${symbol}'`).join(', ')} ${missing.length > 1 ? 'are not user groups' : 'is not a user group'}`,
        'group',
      );
    }
  }
}

/**
 * New channels, and channels moved to another type, must be of a type the gateway can relay to.
 * Stored channels of a type without an adapter keep loading and may be edited otherwise.
 */
export function checkRelayableType(type: number): void {
  const provider = providerByType(type);
  if (provider?.retired) {
    throw AppError.badRequest(`${provider.name} (${type}) channels cannot be created: ${provider.retired}`, 'type');
  }
  if (provider && !isRelayable(provider)) {
    throw AppError.badRequest(
      `${provider.name} (${type}) channels cannot be created or chosen yet: the gateway has no adapter for this type`,
      'type',
    );
  }
}

function checkAgainstProvider(channel: ChannelShape): void {
  const provider = providerByType(channel.type);
  if (!provider) throw AppError.badRequest(`${channel.type} is not a known channel type`, 'type');
  if (provider.baseUrlRequired && !channel.base_url) {
    throw new AppError('bad_request', `base_url is required for ${provider.name} channels`, { field: 'base_url' });
  }
  for (const field of provider.extraFields) {
    if (field.required && field.name === 'other' && !channel.other) {
      throw AppError.badRequest(`${field.label} is required for ${provider.name} channels`, 'other');
    }
  }
}
