import type { OptionService } from '../option/service.js';

export interface RelyingParty {
  /** The host name passkeys are bound to. */
  id: string;
  /** The only origin whose pages may use them. */
  origin: string;
  name: string;
}

const FALLBACK_ORIGIN = 'http://localhost:3000';

/**
 * Who this site is to an authenticator, from the ServerAddress option as in the reference: its
 * host is the RP ID, its origin the one origin accepted, SystemName the name shown. Read on every
 * ceremony, so changing the option needs no restart.
 */
export function relyingPartyOf(options: OptionService): RelyingParty {
  const address = options.get('ServerAddress').trim();
  const url = URL.canParse(address) ? new URL(address) : new URL(FALLBACK_ORIGIN);
  return { id: url.hostname || 'localhost', origin: url.origin, name: options.get('SystemName') || 'One Hub' };
}
