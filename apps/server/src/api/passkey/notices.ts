import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../../platform/mail.js';
import type { OptionService } from '../option/service.js';
import type { PasskeyView } from './wire.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * Tells the user by e-mail that a passkey was added, so one added by someone else does not go
 * unnoticed. Sent after the answer is decided and never fails the enrolment: no SMTP or no address
 * means no mail, and a failed send is only logged.
 */
export function mailPasskeyAdded(
  deps: { mailer: Mailer; options: OptionService; log: FastifyBaseLogger },
  user: { username: string; email: string },
  passkey: PasskeyView,
  sourceIp: string,
): void {
  if (!user.email || !deps.mailer.isConfigured()) return;
  const site = deps.options.get('SystemName');
  const when = new Date(passkey.created_time * 1000).toISOString().replace('T', ' ').slice(0, 16);
  const fact = `A passkey named "${passkey.alias}" was added to your ${site} account (${user.username}) on ${when} UTC from the address ${sourceIp}.`;
  const advice =
    'If it was not you, sign in, remove the passkey in your profile and change your password (the change can remove every passkey at once).';
  deps.mailer
    .send({
      to: user.email,
      subject: `${site}: a passkey was added to your account`,
      html: `<p>${escapeHtml(fact)}</p><p>${escapeHtml(advice)}</p>`,
      text: `${fact}\n\n${advice}`,
    })
    .catch((error: unknown) => {
      deps.log.warn({ err: error }, 'could not send the "passkey added" e-mail');
    });
}
