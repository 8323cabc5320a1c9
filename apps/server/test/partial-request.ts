import { request } from 'node:http';
import { connect } from 'node:net';

export interface PartialAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends a request's headers, declaring a body of `declaredLength` bytes, and only `sent` of it;
 * resolves with the answer the server gives without the rest (a server that waits for the whole
 * body never answers). The request is then abandoned.
 */
export function partialPost(
  base: string,
  path: string,
  headers: Record<string, string>,
  declaredLength: number,
  sent: string,
  method = 'POST',
): Promise<PartialAnswer> {
  const url = new URL(`${base}${path}`);
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers: { 'content-type': 'application/json', ...headers, 'content-length': String(declaredLength) },
        agent: false,
      },
      (incoming) => {
        answered = true;
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (part: string) => {
          text += part;
        });
        const done = () => {
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: text });
          outgoing.destroy();
        };
        incoming.on('end', done);
        incoming.on('aborted', done);
      },
    );
    // The server may close the connection while the rest of the body is still unsent.
    outgoing.on('error', (error) => {
      if (!answered) reject(error);
    });
    outgoing.write(sent);
  });
}

/**
 * Writes raw bytes on a new connection and resolves with everything the server sent once it closes
 * the connection (a server that never closes it never resolves).
 */
export function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (part: string) => {
      received += part;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(received));
    socket.write(text);
  });
}

/** The status code of a raw HTTP answer, or 0 when the server closed without answering. */
export function statusOf(raw: string): number {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(raw);
  return match ? Number(match[1]) : 0;
}
