/**
 * A fake Telegram Bot API for tests: speaks the wire format at `/bot<token>/<method>` on a loopback
 * port, queues the updates a test's "user" sends, and records what the bot answers. Self-contained on
 * purpose (nothing from apps/server/src) so browser tests and server tests can both start it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSentMessage {
  chat_id: number;
  text: string;
  parse_mode?: string;
  message_id: number;
  /** The inline buttons under the message, as `[text, callback_data]` rows. */
  buttons?: Array<Array<[string, string]>>;
  /** Set when this is an edit of an earlier message (editMessageText) rather than a new one. */
  edits?: number;
}

export interface FakeReceivedMessage {
  text: string;
  parse_mode?: string;
  message_id: number;
  buttons?: Array<Array<[string, string]>>;
  edits?: number;
}

export interface FakeBotApi {
  apiRoot: string;
  token: string;
  botUsername: string;
  /**
   * A user writes to the bot (queued for getUpdates, or POSTed to the webhook when one is set).
   * A private chat has the user's id as chat id; a group chat has id `-from.id`.
   */
  userSays(text: string, from?: { id: number; username?: string; chat?: 'private' | 'group' }): Promise<void>;
  /**
   * Resolves with the next message to `chatId` matching `match` that no earlier call returned
   * (messages sent before the call count, so a test never misses a fast reply).
   */
  nextMessage(chatId: number, match?: RegExp): Promise<FakeReceivedMessage>;
  /**
   * The user presses an inline button under the bot's message `messageId` (a callback query);
   * resolves with the bot's answerCallbackQuery text ('' when it answered without one).
   */
  userClicks(data: string, messageId: number, from?: { id: number; chat?: 'private' | 'group' }): Promise<string>;
  sent: FakeSentMessage[];
  commands(): Array<{ command: string; description: string }>;
  webhook(): { url: string; secret_token?: string } | undefined;
  /** Every Bot API method called, in order (e.g. to wait for `getUpdates` before talking). */
  calls: string[];
  /** Resolves once `method` has been called at least `count` times in total. */
  waitForCall(method: string, count?: number): Promise<void>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
type Waiter = () => void;

const DEFAULT_TOKEN = '123456789:FAKE-bot-token_for-tests';
const BOT_ID = 123456789;

export async function startFakeBotApi(options: { token?: string; botUsername?: string } = {}): Promise<FakeBotApi> {
  const token = options.token ?? DEFAULT_TOKEN;
  const botUsername = options.botUsername ?? 'onehub_test_bot';
  const state = new FakeState(token, botUsername);
  const server = createServer((req, res) => {
    state
      .handle(req, res)
      .catch((error: unknown) => reply(res, 500, { ok: false, error_code: 500, description: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    botUsername,
    sent: state.sent,
    calls: state.calls,
    userSays: (text, from) => state.userSays(text, from),
    nextMessage: (chatId, match) => state.nextMessage(chatId, match),
    userClicks: (data, messageId, from) => state.userClicks(data, messageId, from),
    commands: () => state.myCommands.map((c) => ({ ...c })),
    webhook: () => (state.hook ? { ...state.hook } : undefined),
    waitForCall: (method, count = 1) => state.waitFor(() => state.calls.filter((m) => m === method).length >= count),
    close: async () => {
      state.closed = true;
      state.wake();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

class FakeState {
  readonly sent: FakeSentMessage[] = [];
  readonly calls: string[] = [];
  myCommands: Array<{ command: string; description: string }> = [];
  hook: { url: string; secret_token?: string } | undefined;
  closed = false;
  private updates: Json[] = [];
  private nextUpdateId = 1;
  private nextMessageId = 1;
  private readonly consumed = new Set<FakeSentMessage>();
  private readonly callbackAnswers = new Map<string, string>();
  private nextCallbackId = 1;
  private waiters = new Set<Waiter>();

  constructor(
    private readonly token: string,
    private readonly botUsername: string,
  ) {}

  /** Runs every waiter; each re-checks its own condition. */
  wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  waitFor(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!condition() && !this.closed) return;
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec((req.url ?? '').split('?')[0] ?? '');
    if (!match) return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    if (match[1] !== this.token) return reply(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const method = match[2] ?? '';
    const params = await readParams(req);
    this.calls.push(method);
    this.wake();
    if (method === 'getUpdates') return this.getUpdates(params, req, res);
    const result = this.call(method, params);
    if (result === undefined) return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    reply(res, 200, { ok: true, result });
  }

  private call(method: string, params: Json): unknown {
    switch (method) {
      case 'getMe':
        return {
          id: BOT_ID,
          is_bot: true,
          first_name: 'One Hub Test',
          username: this.botUsername,
          can_join_groups: true,
        };
      case 'sendMessage':
        return this.recordMessage(params);
      case 'editMessageText':
        return { ...this.recordMessage(params, Number(params.message_id)), edit_date: now() };
      case 'setWebhook':
        this.hook = { url: String(params.url ?? ''), secret_token: optionalString(params.secret_token) };
        if (!this.hook.url) this.hook = undefined;
        return true;
      case 'deleteWebhook':
        this.hook = undefined;
        if (params.drop_pending_updates === true || params.drop_pending_updates === 'true') this.updates = [];
        return true;
      case 'getWebhookInfo':
        return { url: this.hook?.url ?? '', has_custom_certificate: false, pending_update_count: this.updates.length };
      case 'setMyCommands':
        this.myCommands = parseList(params.commands);
        return true;
      case 'getMyCommands':
        return this.myCommands;
      case 'deleteMyCommands':
        this.myCommands = [];
        return true;
      case 'answerCallbackQuery':
        this.callbackAnswers.set(String(params.callback_query_id), String(params.text ?? ''));
        this.wake();
        return true;
      case 'sendChatAction':
      case 'deleteMessage':
      case 'setChatMenuButton':
        return true;
      default:
        return undefined;
    }
  }

  private recordMessage(params: Json, edits?: number): Json {
    const chatId = Number(params.chat_id);
    const buttons = parseButtons(params.reply_markup);
    const message: FakeSentMessage = {
      chat_id: chatId,
      text: String(params.text ?? ''),
      parse_mode: optionalString(params.parse_mode),
      message_id: edits ?? this.nextMessageId++,
      ...(buttons ? { buttons } : {}),
      ...(edits ? { edits } : {}),
    };
    this.sent.push(message);
    this.wake();
    return {
      message_id: message.message_id,
      date: now(),
      chat: { id: chatId, type: chatId < 0 ? 'group' : 'private' },
      from: { id: BOT_ID, is_bot: true, first_name: 'One Hub Test', username: this.botUsername },
      text: message.text,
    };
  }

  /** Long poll: answers as soon as an update at or after `offset` is queued, or after `timeout` s. */
  private async getUpdates(params: Json, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.hook) {
      return reply(res, 409, {
        ok: false,
        error_code: 409,
        description:
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      });
    }
    const offset = Number(params.offset ?? 0);
    if (offset > 0) this.updates = this.updates.filter((u) => Number(u.update_id) >= offset);
    const limit = Math.max(1, Math.min(100, Number(params.limit ?? 100)));
    const timeoutMs = Math.max(0, Number(params.timeout ?? 0)) * 1000;
    let gone = false;
    const leave = () => {
      gone = true;
      this.wake();
    };
    // The client keeps its socket alive across polls: the listener goes when this poll ends.
    req.socket.once('close', leave);
    const timer = setTimeout(leave, timeoutMs);
    await this.waitFor(() => this.updates.length > 0 || gone || this.hook !== undefined);
    clearTimeout(timer);
    req.socket.off('close', leave);
    if (!res.writableEnded && !res.destroyed) reply(res, 200, { ok: true, result: this.updates.slice(0, limit) });
  }

  async userSays(
    text: string,
    from: { id: number; username?: string; chat?: 'private' | 'group' } = { id: 1001 },
  ): Promise<void> {
    const group = from.chat === 'group';
    const user = { id: from.id, is_bot: false, first_name: from.username ?? `user${from.id}`, username: from.username };
    const commandLength = /^\/\S+/.exec(text)?.[0].length;
    const update = {
      update_id: this.nextUpdateId++,
      message: {
        message_id: this.nextMessageId++,
        date: now(),
        chat: group
          ? { id: -from.id, type: 'group', title: 'Test group' }
          : { id: from.id, type: 'private', first_name: user.first_name },
        from: user,
        text,
        ...(commandLength ? { entities: [{ type: 'bot_command', offset: 0, length: commandLength }] } : {}),
      },
    };
    await this.deliver(update);
  }

  /** Queues an update for getUpdates, or POSTs it to the webhook as Telegram does. */
  private async deliver(update: Json): Promise<void> {
    if (!this.hook) {
      this.updates.push(update);
      this.wake();
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.hook.secret_token) headers['x-telegram-bot-api-secret-token'] = this.hook.secret_token;
    const response = await fetch(this.hook.url, { method: 'POST', headers, body: JSON.stringify(update) });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`webhook answered ${response.status}`);
  }

  async nextMessage(chatId: number, match?: RegExp): Promise<FakeReceivedMessage> {
    let found: FakeSentMessage | undefined;
    await this.waitFor(() => {
      found = this.sent.find((m) => m.chat_id === chatId && !this.consumed.has(m) && (!match || match.test(m.text)));
      return found !== undefined;
    });
    if (!found) throw new Error('fake Bot API closed while waiting for a message');
    this.consumed.add(found);
    const { chat_id: _chat, ...received } = found;
    return received;
  }

  async userClicks(
    data: string,
    messageId: number,
    from: { id: number; chat?: 'private' | 'group' } = { id: 1001 },
  ): Promise<string> {
    const id = String(this.nextCallbackId++);
    const chatId = from.chat === 'group' ? -from.id : from.id;
    const message = [...this.sent].reverse().find((m) => m.message_id === messageId && m.chat_id === chatId);
    await this.deliver({
      update_id: this.nextUpdateId++,
      callback_query: {
        id,
        from: { id: from.id, is_bot: false, first_name: `user${from.id}` },
        chat_instance: `instance${chatId}`,
        data,
        message: {
          message_id: messageId,
          date: now(),
          chat:
            from.chat === 'group'
              ? { id: chatId, type: 'group', title: 'Test group' }
              : { id: chatId, type: 'private' },
          from: { id: BOT_ID, is_bot: true, first_name: 'One Hub Test', username: this.botUsername },
          text: message?.text ?? '',
        },
      },
    });
    await this.waitFor(() => this.callbackAnswers.has(id));
    return this.callbackAnswers.get(id) ?? '';
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readParams(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const query = Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams);
  const type = req.headers['content-type'] ?? '';
  if (!raw) return query;
  if (type.includes('application/json')) return { ...query, ...(JSON.parse(raw) as Json) };
  if (type.includes('application/x-www-form-urlencoded'))
    return { ...query, ...Object.fromEntries(new URLSearchParams(raw)) };
  if (type.includes('multipart/form-data')) return { ...query, ...parseMultipart(raw, type) };
  return query;
}

/** Text fields of a multipart body (grammY sends multipart only with files; tests send none). */
function parseMultipart(raw: string, type: string): Json {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type);
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) return {};
  const fields: Json = {};
  for (const part of raw.split(`--${marker}`)) {
    const name = /name="([^"]+)"/.exec(part)?.[1];
    const body = part.split('\r\n\r\n')[1];
    if (name && body !== undefined) fields[name] = body.replace(/\r\n$/, '');
  }
  return fields;
}

function parseList(value: unknown): Array<{ command: string; description: string }> {
  const list = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(list) ? (list as Array<{ command: string; description: string }>) : [];
}

function parseButtons(value: unknown): Array<Array<[string, string]>> | undefined {
  const markup = (typeof value === 'string' ? JSON.parse(value) : value) as
    | { inline_keyboard?: Array<Array<{ text: string; callback_data?: string }>> }
    | undefined;
  return markup?.inline_keyboard?.map((row) => row.map((button) => [button.text, button.callback_data ?? '']));
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}
