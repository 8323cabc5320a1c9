import { MAX_JSON_DEPTH, nestsDeeperThan } from '@one-hub/contracts';
import { AppError } from '../platform/errors.js';

/**
 * Refuses a JSON body that nests deeper than MAX_JSON_DEPTH before it is parsed: metering, request
 * translation and settings walk parsed bodies recursively. Cheap enough for the relay's hot path.
 */
export function assertJsonDepth(text: string): void {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw AppError.badRequest(
      `request body is nested too deeply: JSON arrays and objects may nest at most ${MAX_JSON_DEPTH} levels`,
    );
  }
}
