import type { DatabaseHandle } from '../../platform/db/index.js';
import type { SecretBox } from '../../platform/secret-box.js';

export class ChannelRepository {
  constructor(
    readonly handle: DatabaseHandle,
    readonly secrets: SecretBox,
  ) {}
}
