import type { Readable } from 'node:stream';

/**
 * Reads a whole HTTP body (an upstream's answer, a payment gateway's reply) up to `limit` bytes;
 * beyond it, the read stops and an error is thrown.
 * Event-driven rather than `for await`: the async iterator costs a promise per chunk.
 */
export function readBody(body: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    body.on('data', (part: Buffer) => {
      size += part.length;
      if (size > limit) {
        body.destroy();
        const tooLarge = new Error(`upstream response is larger than ${limit} bytes`);
        reject(Object.assign(tooLarge, { code: 'response too large' }));
        return;
      }
      parts.push(part);
    });
    body.once('end', () => resolve(parts.length === 1 && parts[0] ? parts[0] : Buffer.concat(parts, size)));
    body.once('error', reject);
  });
}
