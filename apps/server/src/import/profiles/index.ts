import type { ProductProfile } from '../legacy.js';
import { newApiProfile } from './new-api.js';
import { oneApiProfile } from './one-api.js';
import { oneHubProfile } from './one-hub.js';

/**
 * Every source product the importer knows, in the order their `detect` is tried: One Hub first
 * (it has everything the others have plus its own tables), then new-api, then one-api (the
 * common ancestor, whose tables the other two also have).
 */
export const profiles: readonly ProductProfile[] = [oneHubProfile, newApiProfile, oneApiProfile];

/** The profile whose tables the source has, or undefined when it is none of them. */
export function detectProduct(schema: Map<string, Set<string>>): ProductProfile | undefined {
  return profiles.find((profile) => profile.detect(schema));
}
