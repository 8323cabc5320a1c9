import { createRequire } from 'node:module';
import type { SystemLogEntry } from '@one-hub/contracts';
import pino, { type Logger } from 'pino';
import { maskEmails } from './mail.js';

/**
 * Paths redacted from every log line. Request bodies are never logged, but a route that logs an
 * object holding credentials still must not leak them.
 */
const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-goog-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'password',
  'key',
  'token',
  'secret',
  'authorization',
  'cookie',
  '*.password',
  '*.key',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.cookie',
  '*.access_token',
  '*.accessToken',
];

/** Lines root's log viewer can read back (`POST /api/system_info/log`); the oldest go first. */
export const SYSTEM_LOG_CAPACITY = 1000;
/** Longer lines (a stack trace, a large object) are cut, so the buffer's memory stays bounded. */
export const SYSTEM_LOG_LINE_LIMIT = 2000;

const buffers = new WeakMap<object, SystemLogBuffer>();

/** How log lines look on standard output: readable on a terminal, JSON for machines. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * Standard output in the chosen format. Pretty lines are formatted in this thread (no worker), one
 * per event; `auto` picks them only when a person is watching (a TTY).
 */
function stdoutStream(format: LogFormat): pino.DestinationStream {
  const readable = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  if (!readable) return pino.destination();
  // Loaded only for a person at a terminal: a server writing JSON never needs the formatter.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pretty({
    colorize: process.stdout.isTTY === true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
  });
}

/**
 * Writes to stdout unless given a destination (tests read the lines back). Every line the
 * configured level lets through is also kept, secrets removed, in a bounded in-memory buffer.
 */
export function createLogger(level: string, destination?: pino.DestinationStream, format: LogFormat = 'json'): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: {
      // Query strings may hold keys (`?key=` is how the Gemini SDK authenticates).
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: maskUrlSecrets(request.url),
        ip: request.ip,
      }),
      // An upstream's error text may quote a credential; what reaches stdout is masked like the buffer.
      err: (error: Error) => {
        const serialised = pino.stdSerializers.err(error);
        return {
          ...serialised,
          message: maskText(serialised.message ?? ''),
          ...(serialised.stack ? { stack: maskText(serialised.stack) } : {}),
        };
      },
    },
  };
  const buffer = new SystemLogBuffer();
  // Both streams take every level: the logger's own level decides what is written at all.
  const streams = pino.multistream([
    { level: 'trace', stream: destination ?? stdoutStream(format) },
    { level: 'trace', stream: buffer },
  ]);
  const logger = pino(options, streams);
  buffers.set(logger, buffer);
  return logger;
}

/** The buffer of a logger made by `createLogger`; its children write to the same one. */
export function systemLogOf(logger: object): SystemLogBuffer | undefined {
  return buffers.get(logger);
}

/** A request URL as logged: query values that are credentials, keys in paths and e-mails masked. */
export function maskUrlSecrets(url: string): string {
  return maskText(url);
}

/** A ring of the last lines, each scrubbed of secrets before it is stored. */
export class SystemLogBuffer {
  private readonly entries: SystemLogEntry[] = [];
  private next = 0;

  constructor(readonly capacity = SYSTEM_LOG_CAPACITY) {}

  /** pino's destination interface: one serialized JSON line per call. */
  write(line: string): void {
    const entry = toEntry(line);
    if (this.entries.length < this.capacity) this.entries.push(entry);
    else this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
  }

  /** The last `count` lines, oldest first. */
  recent(count: number): SystemLogEntry[] {
    const ordered =
      this.entries.length < this.capacity
        ? this.entries
        : [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)];
    return ordered.slice(Math.max(0, ordered.length - count));
  }
}

/** The fields pino adds to every line; the viewer shows time and level in their own columns. */
const FRAME_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

function toEntry(line: string): SystemLogEntry {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    // Not JSON: kept as text below.
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    return { Timestamp: new Date().toISOString(), Level: 'info', Message: capLine(maskText(line.trim())) };
  }
  return fromRecord(record as Record<string, unknown>);
}

function fromRecord(record: Record<string, unknown>): SystemLogEntry {
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) if (!FRAME_FIELDS.has(name)) rest[name] = value;
  const message = typeof record.msg === 'string' ? maskText(record.msg) : '';
  const details = Object.keys(rest).length > 0 ? JSON.stringify(scrub(rest, 0)) : '';
  return {
    Timestamp: new Date(typeof record.time === 'number' ? record.time : Date.now()).toISOString(),
    Level: pino.levels.labels[Number(record.level)] ?? 'info',
    Message: capLine([message, details].filter(Boolean).join(' ')),
  };
}

function capLine(text: string): string {
  return text.length > SYSTEM_LOG_LINE_LIMIT ? `${text.slice(0, SYSTEM_LOG_LINE_LIMIT - 1)}…` : text;
}

/** Field names whose values are credentials whatever object holds them (compared without case or separators). */
const SECRET_NAME =
  /(password|passwd|secret|token|apikey|key|keys|cookie|cookies|authorization|credential|credentials|signature|turnstile|dsn)$/;

function scrub(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 8) return '[…]';
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const clean: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    const secret = SECRET_NAME.test(name.toLowerCase().replace(/[^a-z]/g, ''));
    const shown = field === null || field === '' || typeof field === 'boolean';
    clean[name] = secret && !shown ? '[redacted]' : scrub(field, depth + 1);
  }
  return clean;
}

/**
 * Credentials that may sit inside free text: keys, bearer tokens, URL passwords, `name=value` pairs.
 * Every pattern starts at a fixed marker, so a long line costs linear time (a log line may hold an
 * upstream's whole answer).
 */
export function maskText(text: string): string {
  return (
    maskEmails(text)
      .replace(/([?&](?:key|token|access_token|code|state|turnstile)=)[^&\s"]*/gi, '$1***')
      .replace(/sk-[A-Za-z0-9_-]{8,}/g, 'sk-***')
      // Telegram bot tokens: in the webhook path Telegram calls and in Bot API URLs.
      .replace(/(\/api\/telegram\/)[^/?\s"]+/g, '$1***')
      .replace(/(\/bot\d+:)[A-Za-z0-9_-]+/g, '$1***')
      // MCP clients are given a URL holding the user's access token (/mcp/<token>, /mcp/sse/<token>…).
      .replace(/(\/mcp\/(?:sse\/|message\/)?)[^/?\s"]+/g, '$1***')
      .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 ***')
      .replace(/AIza[0-9A-Za-z_-]{20,}/g, 'AIza***')
      .replace(/:\/\/([^:/@\s]*):[^@\s/]+@/g, '://$1:***@')
      .replace(
        /((?:password|passwd|secret|token|api[_-]?key|authorization|cookie)["']?\s*[:=]\s*["']?)[^\s"'&,;]+/gi,
        '$1***',
      )
  );
}

export type { Logger };
