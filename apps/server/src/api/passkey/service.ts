import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { nowSeconds } from '../../platform/clock.js';
import { randomString } from '../../platform/crypto.js';
import { isUniqueViolation, type UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { lazyModule } from '../../platform/lazy-module.js';
import type { ExternalAccounts } from '../account/oauth/external-accounts.js';
import type { OptionService } from '../option/service.js';
import type { UserRepository } from '../user/repo.js';
import { CHALLENGE_TTL_SECONDS, type PasskeyChallenges } from './challenges.js';
import { relyingPartyOf } from './relying-party.js';
import type { PasskeyRepository } from './repo.js';
import { type PasskeyView, toPasskeyView } from './wire.js';

/** The WebAuthn verifier (and its certificate parsers), loaded at the first passkey ceremony. */
const webAuthn = lazyModule(() => import('@simplewebauthn/server'));

const EXPIRED = 'the passkey ceremony has expired or was already used; start again';
const NOT_VERIFIED = 'the passkey could not be verified';

/** The user handle is the decimal user id, as in the reference, so its passkeys keep working after an import. */
const userHandleOf = (userId: number) => new TextEncoder().encode(String(userId));

/** A verifier's exception as the refusal the ceremony answers with (a bad registration 400, a bad sign-in 401). */
const refuseAs =
  (refusal: (message: string) => AppError) =>
  (error: unknown): never => {
    throw refusal(`${NOT_VERIFIED}: ${error instanceof Error ? error.message : String(error)}`);
  };

/** One Hub's default alias: the registration time as YYYYMMDDhhmmss. */
function defaultAlias(date = new Date()): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** Passkey registration, sign-in and management (reference §1.3 `/api/webauthn/*`). */
export class PasskeyService {
  constructor(
    private readonly repo: PasskeyRepository,
    private readonly users: UserRepository,
    private readonly options: OptionService,
    private readonly challenges: PasskeyChallenges,
    private readonly accounts: ExternalAccounts,
  ) {}

  private assertEnabled(): void {
    if (!this.options.getBoolean('PasskeyLoginEnabled')) {
      throw AppError.forbidden('passkey sign-in is disabled on this site (PasskeyLoginEnabled)');
    }
  }

  async beginRegistration(user: UserRow, alias: string | undefined): Promise<PublicKeyCredentialCreationOptionsJSON> {
    this.assertEnabled();
    const rp = relyingPartyOf(this.options);
    const existing = await this.repo.listByUser(user.id);
    const options = await (await webAuthn()).generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userID: userHandleOf(user.id),
      userName: user.username,
      userDisplayName: user.display_name || user.username,
      timeout: CHALLENGE_TTL_SECONDS * 1000,
      attestationType: 'none',
      // The same authenticator twice would only be a second row for one key.
      excludeCredentials: existing.map((row) => ({ id: row.credential_id })),
      // Discoverable, so signing in needs no username; verified, as the passkey is the only factor.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.challenges.put(`registration:${user.id}`, { challenge: options.challenge, ...(alias ? { alias } : {}) });
    return options;
  }

  async finishRegistration(user: UserRow, response: RegistrationResponseJSON): Promise<PasskeyView> {
    this.assertEnabled();
    const pending = await this.challenges.take(`registration:${user.id}`);
    if (!pending) throw AppError.badRequest(EXPIRED);
    const result = await (await webAuthn())
      .verifyRegistrationResponse({ response, ...this.expectations(pending.challenge) })
      .catch(refuseAs(AppError.badRequest));
    if (!result.verified) throw AppError.badRequest(NOT_VERIFIED);
    const info = result.registrationInfo;
    const row = {
      user_id: user.id,
      credential_id: info.credential.id,
      public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
      attestation_type: info.fmt,
      alias: pending.alias || defaultAlias(),
      backup_eligible: info.credentialDeviceType === 'multiDevice',
      backup_state: info.credentialBackedUp,
      aaguid: info.aaguid,
      sign_count: info.credential.counter,
      clone_warning: false,
      attachment: response.authenticatorAttachment ?? '',
      created_time: nowSeconds(),
    };
    try {
      const id = await this.repo.insert(row);
      return toPasskeyView({ ...row, id });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict('this passkey is already registered');
      throw error;
    }
  }

  /** Options for a sign-in; with a username, only that user's passkeys, else any discoverable one. */
  async beginLogin(
    username: string | undefined,
  ): Promise<{ flow: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    this.assertEnabled();
    const rp = relyingPartyOf(this.options);
    const user = username ? await this.users.findByLogin(username) : undefined;
    // An unknown name gets the same answer as a discoverable sign-in: this does not say who exists.
    const allowed = user ? await this.repo.listByUser(user.id) : [];
    const options = await (await webAuthn()).generateAuthenticationOptions({
      rpID: rp.id,
      timeout: CHALLENGE_TTL_SECONDS * 1000,
      userVerification: 'required',
      allowCredentials: allowed.map((row) => ({ id: row.credential_id })),
    });
    const flow = randomString(32);
    await this.challenges.put(`login:${flow}`, { challenge: options.challenge, ...(user ? { userId: user.id } : {}) });
    return { flow, options };
  }

  /** Checks the assertion and signs the user in as the password login does (last login, disabled → 403). */
  async finishLogin(
    flow: string | undefined,
    response: AuthenticationResponseJSON,
    sourceIp: string,
  ): Promise<UserRow> {
    this.assertEnabled();
    const pending = flow ? await this.challenges.take(`login:${flow}`) : undefined;
    if (!pending) throw AppError.badRequest(EXPIRED);
    const credential = await this.repo.findByCredentialId(response.id);
    if (!credential) throw AppError.unauthorized('this passkey is not registered on this site');
    const handle = response.response.userHandle;
    const handleUser = handle ? Buffer.from(handle, 'base64url').toString('utf8') : undefined;
    if (
      (pending.userId !== undefined && pending.userId !== credential.user_id) ||
      (handleUser !== undefined && handleUser !== String(credential.user_id))
    ) {
      throw AppError.unauthorized(NOT_VERIFIED);
    }
    const result = await (await webAuthn())
      .verifyAuthenticationResponse({
        response,
        ...this.expectations(pending.challenge),
        credential: {
          id: credential.credential_id,
          publicKey: new Uint8Array(Buffer.from(credential.public_key, 'base64url')),
          counter: Number(credential.sign_count),
        },
      })
      .catch(refuseAs(AppError.unauthorized));
    if (!result.verified) throw AppError.unauthorized(NOT_VERIFIED);
    const user = await this.users.findById(credential.user_id);
    if (!user) throw AppError.unauthorized('the user of this passkey no longer exists');
    const signedIn = await this.accounts.recordSignIn(user, sourceIp);
    const info = result.authenticationInfo;
    await this.repo.recordUse(credential.id, info.newCounter, info.credentialBackedUp);
    return signedIn;
  }

  /** What both ceremonies check an answer against: the challenge handed out, this site, a verified user. */
  private expectations(challenge: string) {
    const rp = relyingPartyOf(this.options);
    return {
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    };
  }

  async list(user: UserRow): Promise<PasskeyView[]> {
    return (await this.repo.listByUser(user.id)).map(toPasskeyView);
  }

  async remove(user: UserRow, id: number): Promise<void> {
    if (!(await this.repo.deleteOwned(user.id, id))) throw AppError.notFound(`passkey ${id} not found`);
  }
}
