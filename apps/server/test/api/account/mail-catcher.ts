import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  from: string;
  to: string[];
  /** The message with quoted-printable encoding undone, so codes and links can be searched. */
  text: string;
}

export interface MailCatcher {
  port: number;
  user: string;
  password: string;
  mails: CaughtMail[];
  /** Usernames of AUTH attempts, accepted or not. */
  logins: string[];
  close(): Promise<void>;
}

/** Undoes quoted-printable: soft line breaks and `=XX` escapes. */
function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

/**
 * A real SMTP server on a loopback port that accepts one account and keeps every message. STARTTLS
 * is off, so the client talks plain SMTP as it would to a local relay.
 */
export async function startMailCatcher(
  user = 'mailer@example.com',
  password = 'smtp-secret-token',
): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(auth.username ?? '');
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const parts: Buffer[] = [];
      stream.on('data', (part: Buffer) => parts.push(part));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          text: decodeQuotedPrintable(Buffer.concat(parts).toString('latin1')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    user,
    password,
    mails,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
