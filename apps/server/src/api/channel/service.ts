import type { Cache } from '../../platform/cache/index.js';
import type { ChannelRepository } from './repo.js';

export class ChannelService {
  constructor(
    readonly repo: ChannelRepository,
    readonly cache: Cache,
  ) {}
}
