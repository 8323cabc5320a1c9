import type { OptionKey } from '@one-hub/contracts';

/**
 * The settings as the relay reads them: current values, already cached and kept fresh by the
 * option service (api/option/service.ts), which the composition root hands in. Reading needs no
 * part of the management API, so the relay depends on this and not on the service's module.
 */
export interface OptionReader {
  get(key: OptionKey): string;
  getBoolean(key: OptionKey): boolean;
  getNumber(key: OptionKey): number;
}
