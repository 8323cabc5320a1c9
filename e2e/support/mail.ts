import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** The account the server signs in to the catcher with (options SMTPAccount/SMTPToken). */
const SMTP_USER = 'mailer@example.com';
const SMTP_PASSWORD = 'smtp-secret-token';

export interface CaughtMail {
  to: string[];
  text: string;
}

export interface MailCatcher {
  port: number;
  mails: CaughtMail[];
  close(): Promise<void>;
}

/** Undoes quoted-printable (soft line breaks and `=XX`), so codes and links can be searched. */
function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

/** A local SMTP catcher: a real SMTP server on a loopback port that keeps every message. */
export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: SMTP_USER });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const parts: Buffer[] = [];
      stream.on('data', (part: Buffer) => parts.push(part));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          text: decodeQuotedPrintable(Buffer.concat(parts).toString('latin1')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** The server options that send the site's mail to `catcher`, as [key, value] pairs. */
export function smtpOptions(catcher: MailCatcher): Array<[string, string]> {
  return [
    ['SMTPServer', '127.0.0.1'],
    ['SMTPPort', String(catcher.port)],
    ['SMTPAccount', SMTP_USER],
    ['SMTPFrom', SMTP_USER],
    ['SMTPToken', SMTP_PASSWORD],
  ];
}

/** Waits for the next mail to `address` after `seen` mails had arrived, and returns its text. */
export async function nextMailTo(catcher: MailCatcher, address: string, seen: number): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const mail = catcher.mails.slice(seen).find((candidate) => candidate.to.includes(address));
    if (mail) return mail.text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail reached ${address}`);
}
