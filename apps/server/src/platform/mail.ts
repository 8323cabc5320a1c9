import { AppError } from './errors.js';

/** SMTP settings as the administrator entered them; read on every send so edits apply at once. */
export interface SmtpSettings {
  server: string;
  port: number;
  account: string;
  /** Sender address; the account is used when empty. */
  from: string;
  /** The SMTP password or app token. Never logged and never part of an error message. */
  token: string;
  /** Display name of the sender, e.g. the site's name. */
  senderName?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface Mailer {
  isConfigured(): boolean;
  send(message: MailMessage): Promise<void>;
}

const IMPLICIT_TLS_PORT = 465;

const EMAIL_DOMAIN = /(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
const EMAIL_LOCAL_CHARACTER = /[A-Za-z0-9._%+-]/;

/**
 * Masks every e-mail address in a log line, URL or error text: `alice@example.com` becomes
 * `a***@example.com`, enough to tell addresses apart without keeping them in logs. Addresses are
 * found from their `@` (or `%40`) backwards, so a long line costs linear time.
 */
export function maskEmails(text: string): string {
  let masked = '';
  let copied = 0;
  for (const match of text.matchAll(EMAIL_DOMAIN)) {
    let start = match.index;
    while (start > copied && EMAIL_LOCAL_CHARACTER.test(text.charAt(start - 1))) start -= 1;
    if (start === match.index) continue;
    masked += `${text.slice(copied, start + 1)}***${match[0]}`;
    copied = match.index + match[0].length;
  }
  return masked + text.slice(copied);
}

/**
 * Sends mail through the configured SMTP server. Port 465 speaks TLS from the first byte; other
 * ports start in plain text and upgrade with STARTTLS when the server offers it.
 */
export function createMailer(settings: () => SmtpSettings): Mailer {
  const senderOf = (current: SmtpSettings) => (current.from || current.account).trim();

  return {
    isConfigured() {
      const current = settings();
      return Boolean(current.server.trim() && senderOf(current));
    },
    async send(message) {
      const current = settings();
      const sender = senderOf(current);
      if (!current.server.trim() || !sender) {
        throw new AppError(
          'unavailable',
          'e-mail is not set up on this site: an administrator must fill in SMTPServer and SMTPFrom (or SMTPAccount)',
        );
      }
      const port = current.port > 0 ? current.port : 587;
      // Loaded on the first send: most sites rarely mail, and the library costs a few MB resident.
      const { default: nodemailer } = await import('nodemailer');
      const transport = nodemailer.createTransport({
        host: current.server.trim(),
        port,
        secure: port === IMPLICIT_TLS_PORT,
        ...(current.account ? { auth: { user: current.account, pass: current.token } } : {}),
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
        logger: false,
        debug: false,
      });
      try {
        await transport.sendMail({
          from: current.senderName ? { name: current.senderName, address: sender } : sender,
          to: message.to,
          subject: message.subject,
          html: message.html,
          text: message.text,
        });
      } catch (error) {
        // Only the library's short reason travels on: it names the failure, never the credentials.
        // SMTP servers quote the recipient when they refuse it; the address stays out of logs.
        const reason = maskEmails(error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'unknown error');
        throw new AppError('upstream_error', `sending the e-mail failed: ${reason}`);
      } finally {
        transport.close();
      }
    },
  };
}
