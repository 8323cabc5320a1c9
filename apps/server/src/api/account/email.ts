import { randomString } from '../../platform/crypto.js';
import type { UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { Mailer, MailMessage } from '../../platform/mail.js';
import { hashPassword } from '../../platform/password.js';
import type { OptionService } from '../option/service.js';
import type { InviteRewards } from '../user/invite-reward.js';
import type { UserRepository } from '../user/repo.js';
import type { AccountBindingRepository } from './bindings-repo.js';
import type { VerificationCodes } from './verification.js';

/** Purpose of the codes that prove an address: registration (AccountService.register) and binding. */
export const EMAIL_CODE_PURPOSE = 'register';
const RESET_PURPOSE = 'reset';
const RESET_TOKEN_LENGTH = 32;
const NEW_PASSWORD_LENGTH = 12;

/** Whether `EmailDomainRestrictionEnabled` lets this address in (always true when the restriction is off). */
export function isEmailDomainAllowed(options: OptionService, email: string): boolean {
  if (!options.getBoolean('EmailDomainRestrictionEnabled')) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return allowedEmailDomains(options).includes(domain);
}

/** Refuses an address outside `EmailDomainWhitelist` while the restriction is on, with a 400 naming the field. */
export function checkEmailDomain(options: OptionService, email: string): void {
  if (!isEmailDomainAllowed(options, email)) {
    throw AppError.badRequest(`email: this site accepts only addresses at ${allowedEmailDomains(options).join(', ')}`);
  }
}

function allowedEmailDomains(options: OptionService): string[] {
  return options
    .get('EmailDomainWhitelist')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** E-mail codes: proving an address, resetting a forgotten password, binding an address. */
export class EmailAccounts {
  constructor(
    private readonly users: UserRepository,
    private readonly bindings: AccountBindingRepository,
    private readonly options: OptionService,
    private readonly codes: VerificationCodes,
    private readonly mailer: Mailer,
    private readonly inviteRewards?: InviteRewards,
  ) {}

  /** Mails a 6-character code to an address no user holds yet. */
  async sendVerificationCode(email: string): Promise<void> {
    checkEmailDomain(this.options, email);
    if (await this.users.isEmailTaken(email)) {
      throw AppError.conflict('email: this e-mail address is already in use');
    }
    this.requireMailer();
    const code = await this.codes.issue(EMAIL_CODE_PURPOSE, email);
    const site = escapeHtml(this.options.get('SystemName'));
    await this.mailer.send({
      to: email,
      subject: `${this.options.get('SystemName')}: your verification code`,
      html: `<p>Your verification code for ${site} is <strong>${code}</strong>.</p><p>It is valid for 10 minutes. If you did not ask for it, ignore this e-mail.</p>`,
      text: `Your verification code for ${this.options.get('SystemName')} is ${code}. It is valid for 10 minutes.`,
    });
  }

  /**
   * Mails a reset link when a user holds the address. The answer is the same either way, so the
   * endpoint does not tell strangers which addresses have accounts.
   */
  async sendPasswordReset(email: string): Promise<void> {
    this.requireMailer();
    const user = await this.bindings.findByEmail(email);
    if (!user) return;
    const token = await this.codes.issue(RESET_PURPOSE, email, RESET_TOKEN_LENGTH);
    const base = this.options.get('ServerAddress').trim().replace(/\/+$/, '');
    const link = `${base}/user/reset?email=${encodeURIComponent(email)}&token=${token}`;
    await this.mailer.send(this.resetMail(email, link));
  }

  /**
   * Checks the mailed token once, sets a random password (to be changed at the next sign-in) and
   * returns it. Every session ends and the access token is revoked: whoever held them may be the
   * reason for the reset.
   */
  async resetPassword(email: string, token: string): Promise<string> {
    const wrong = () => AppError.badRequest('token: the reset link is wrong or has expired; ask for a new one');
    if (!(await this.codes.consume(RESET_PURPOSE, email, token))) throw wrong();
    const user = await this.bindings.findByEmail(email);
    if (!user) throw wrong();
    const password = randomString(NEW_PASSWORD_LENGTH);
    await this.users.setPassword(user.id, await hashPassword(password), {
      // The new password was made up here and travels by e-mail: the console asks for one of the user's own.
      password_change_required: 1,
    });
    return password;
  }

  /** Sets the signed-in user's address once the code mailed to it checks out. */
  async bindEmail(user: UserRow, email: string, code: string): Promise<void> {
    checkEmailDomain(this.options, email);
    if (!(await this.codes.consume(EMAIL_CODE_PURPOSE, email, code))) {
      throw AppError.badRequest('code: the verification code is wrong or has expired');
    }
    if (await this.users.isEmailTaken(email, user.id)) {
      throw AppError.conflict('email: this e-mail address is already in use');
    }
    // The code proved the address: external sign-ins may now match this user by it.
    await this.users.update(user.id, { email, email_verified: 1 });
    await this.inviteRewards?.onEmailVerified(user.id);
  }

  private requireMailer(): void {
    if (!this.mailer.isConfigured()) {
      throw new AppError('unavailable', 'e-mail is not set up on this site; ask the administrator');
    }
  }

  private resetMail(email: string, link: string): MailMessage {
    const site = this.options.get('SystemName');
    return {
      to: email,
      subject: `${site}: reset your password`,
      html: `<p>Someone asked to reset the password of your ${escapeHtml(site)} account.</p><p><a href="${escapeHtml(link)}">Reset the password</a> (valid for 10 minutes), or open this address: ${escapeHtml(link)}</p><p>If it was not you, ignore this e-mail.</p>`,
      text: `Someone asked to reset the password of your ${site} account. Open ${link} within 10 minutes to reset it. If it was not you, ignore this e-mail.`,
    };
  }
}
