import type { DatabaseHandle } from '../../platform/db/index.js';

export class PriceRepository {
  constructor(readonly handle: DatabaseHandle) {}
}
