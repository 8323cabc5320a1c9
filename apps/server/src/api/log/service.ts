import type { DatabaseHandle } from '../../platform/db/index.js';

export class LogService {
  constructor(readonly handle: DatabaseHandle) {}
}
