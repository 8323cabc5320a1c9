import type { Cache } from '../../platform/cache/index.js';
import type { PriceRepository } from './repo.js';

export class PriceService {
  constructor(
    readonly repo: PriceRepository,
    readonly cache: Cache,
  ) {}
}
