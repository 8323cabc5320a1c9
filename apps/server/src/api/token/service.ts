import type { SecretBox } from '../../platform/secret-box.js';
import type { UserGroupService } from '../user-group/service.js';
import type { TokenRepository } from './repo.js';

export class TokenService {
  constructor(
    readonly repo: TokenRepository,
    readonly groups: UserGroupService,
    readonly secrets: SecretBox,
  ) {}
}
