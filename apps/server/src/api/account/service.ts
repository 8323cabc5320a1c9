import { type LoginBody, type RegisterBody, type SelfUpdateBody, UserStatus } from '@one-hub/contracts';
import { randomHex, randomString, sha256Hex } from '../../platform/crypto.js';
import type { UserRow, UserUpdate } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../platform/password.js';
import type { OptionService } from '../option/service.js';
import type { UserRepository } from '../user/repo.js';
import type { UserService } from '../user/service.js';
import { checkEmailDomain, EMAIL_CODE_PURPOSE } from './email.js';
import type { VerificationCodes } from './verification.js';

export class AccountService {
  // Compared against when the user does not exist, so a wrong username costs as long as a wrong password.
  private readonly dummyHash = hashPassword(randomString(20));

  constructor(
    private readonly users: UserRepository,
    private readonly userService: UserService,
    private readonly options: OptionService,
    private readonly verification: VerificationCodes,
  ) {}

  async register(body: RegisterBody, sourceIp: string): Promise<UserRow> {
    if (!this.options.getBoolean('RegisterEnabled') || !this.options.getBoolean('PasswordRegisterEnabled')) {
      throw AppError.forbidden('registration is closed on this site');
    }
    // The allow-list holds whether or not the address is verified: an unverified one is still stored.
    if (body.email) checkEmailDomain(this.options, body.email);
    const verified = this.options.getBoolean('EmailVerificationEnabled');
    if (verified) {
      if (!body.email) throw AppError.badRequest('email: an e-mail address is required');
      if (!body.verification_code)
        throw AppError.badRequest('verification_code: the e-mail verification code is required');
      // Refuse a taken name before the one-time code is spent on an attempt bound to fail.
      if (await this.users.isUsernameTaken(body.username)) {
        throw AppError.conflict(`'${body.username}' is already taken`, 'username');
      }
      if (!(await this.verification.consume(EMAIL_CODE_PURPOSE, body.email, body.verification_code))) {
        throw AppError.badRequest('verification_code: the code is wrong or has expired');
      }
    }
    const inviter = body.aff_code ? await this.users.findByAffCode(body.aff_code) : undefined;
    return this.userService.createAccount({
      username: body.username,
      password: body.password,
      email: body.email || undefined,
      emailVerified: verified,
      inviterId: inviter?.id,
      sourceIp,
    });
  }

  async login(body: LoginBody, sourceIp: string): Promise<UserRow> {
    if (!this.options.getBoolean('PasswordLoginEnabled')) {
      throw AppError.forbidden('password sign-in is disabled on this site');
    }
    const user = await this.users.findByLogin(body.username);
    const matches = await verifyPassword(body.password, user?.password ?? (await this.dummyHash));
    if (!user || !matches || user.status !== UserStatus.enabled) {
      throw AppError.unauthorized('wrong username or password, or the user is disabled');
    }
    await this.users.recordLogin(user.id, sourceIp);
    return user;
  }

  /**
   * Changes the caller's display name and, when given, password. A new password needs the current
   * one, ends every session and revokes the access token. Returns the updated row.
   */
  async updateSelf(user: UserRow, body: SelfUpdateBody): Promise<UserRow> {
    if (body.password) await this.checkCurrentPassword(user, body.original_password);
    const patch: UserUpdate = {};
    if (body.display_name !== undefined) patch.display_name = body.display_name;
    if (body.password) {
      await this.users.setPassword(user.id, await hashPassword(body.password), {
        ...patch,
        password_change_required: 0,
      });
      this.userService.userChanged(user.id);
    } else if (Object.keys(patch).length > 0) {
      await this.users.update(user.id, patch);
    }
    return (await this.users.findById(user.id)) ?? user;
  }

  /** Signing out ends every session of the user, on every device (the rule is simple on purpose). */
  async logout(user: UserRow): Promise<void> {
    await this.users.revokeSessions(user.id);
    this.userService.userChanged(user.id);
  }

  /** A new management access token; only its digest is stored, so it is shown this once. */
  async regenerateAccessToken(user: UserRow): Promise<string> {
    const token = randomHex(16);
    await this.users.update(user.id, { access_token_hash: sha256Hex(token) });
    return token;
  }

  private async checkCurrentPassword(user: UserRow, current: string | undefined): Promise<void> {
    if (!current) {
      throw AppError.badRequest('original_password: the current password is required to set a new one');
    }
    if (!(await verifyPassword(current, user.password))) {
      throw AppError.forbidden('original_password: the current password is wrong');
    }
  }

  async affCode(user: UserRow): Promise<string> {
    if (user.aff_code) return user.aff_code;
    const code = await this.users.unusedAffCode();
    await this.users.update(user.id, { aff_code: code });
    return code;
  }
}
