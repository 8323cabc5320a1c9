import type { DatabaseHandle } from '../../platform/db/index.js';

export class TokenRepository {
  constructor(readonly handle: DatabaseHandle) {}
}
