import { randomBytes } from 'node:crypto';
import { request } from 'undici';

/** How the image hosts are called: one undici request, its body read whole, bounded in time. */

const UPLOAD_TIMEOUT_MS = 30_000;
/** More than any host's answer to an upload; a longer one is cut, not kept in memory. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface HostAnswer {
  status: number;
  text: string;
}

export async function send(
  url: string,
  init: { method: 'POST' | 'PUT'; headers: Record<string, string>; body: Buffer },
): Promise<HostAnswer> {
  const answer = await request(url, {
    method: init.method,
    headers: init.headers,
    body: init.body,
    headersTimeout: UPLOAD_TIMEOUT_MS,
    bodyTimeout: UPLOAD_TIMEOUT_MS,
    signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    if (size > MAX_ANSWER_BYTES) {
      answer.body.destroy();
      break;
    }
    chunks.push(bytes);
  }
  return { status: answer.statusCode, text: Buffer.concat(chunks).toString('utf8') };
}

/** The host's JSON answer as an object; an Error naming the status when it is none. */
export function jsonAnswer(answer: HostAnswer): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(answer.text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // reported below
  }
  throw new Error(`HTTP ${answer.status}: the answer is not a JSON object`);
}

/** RFC 7578 form data: text fields and one file. */
export function fileForm(
  file: { field: string; name: string; contentType: string; bytes: Buffer },
  fields: ReadonlyArray<[string, string]> = [],
): { contentType: string; body: Buffer } {
  const boundary = `----onehub${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\n` +
        `Content-Type: ${file.contentType}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}
