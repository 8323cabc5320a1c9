import { createHmac } from 'node:crypto';
import { fetch, ProxyAgent } from 'undici';
import type { Logger } from './logger.js';
import type { Mailer } from './mail.js';

/**
 * Operator notifications: a channel disabled by the relay or a balance check, the summary of a
 * test of all channels. Each configured notifier gets every notification; a failing one is
 * logged and never holds up the caller. Configured from the environment (NOTIFY_*, see config.ts).
 */
export interface Notification {
  title: string;
  /** Markdown body; notifiers without markdown get it as plain text. */
  markdown: string;
}

export interface Notifier {
  /** Fire and forget; resolves when every notifier has answered or failed (for tests and shutdown). */
  notify(notification: Notification): Promise<void>;
  /** Names of the configured notifiers, for the start-up log. */
  readonly names: readonly string[];
}

export interface NotifyConfig {
  email: { to?: string; disabled: boolean };
  wecom?: { webhook: string };
  dingtalk?: { token: string; secret?: string; keyword?: string; apiBase: string };
  lark?: { token: string; secret?: string; keyword?: string; apiBase: string };
  pushdeer?: { pushkey: string; url: string };
  telegram?: { botApiKey: string; chatId: string; proxy?: string; apiBase: string };
}

interface NotifierTarget {
  name: string;
  send(notification: Notification): Promise<void>;
}

const TIMEOUT_MS = 10_000;

async function postJson(url: string, body: unknown, dispatcher?: ProxyAgent): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
    ...(dispatcher ? { dispatcher } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** DingTalk and Lark answer HTTP 200 with an error code in the body. */
function checkCode(answer: unknown, field: 'errcode' | 'code', messageField: 'errmsg' | 'msg'): void {
  if (typeof answer !== 'object' || answer === null) return;
  const record = answer as Record<string, unknown>;
  const code = record[field] ?? record.StatusCode;
  if (typeof code === 'number' && code !== 0) throw new Error(`error ${code}: ${String(record[messageField] ?? '')}`);
}

const withKeyword = (keyword: string | undefined, text: string) => (keyword ? `${keyword}\n${text}` : text);

function targets(config: NotifyConfig, mail: { mailer: Mailer; rootEmail(): Promise<string | undefined> }) {
  const list: NotifierTarget[] = [];
  if (!config.email.disabled) {
    list.push({
      name: 'email',
      async send({ title, markdown }) {
        if (!mail.mailer.isConfigured()) return;
        const to = config.email.to || (await mail.rootEmail());
        if (!to) return;
        const escaped = markdown.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        await mail.mailer.send({ to, subject: title, text: markdown, html: `<pre>${escaped}</pre>` });
      },
    });
  }
  const { wecom, dingtalk, lark, pushdeer, telegram } = config;
  if (wecom) {
    list.push({
      name: 'wecom',
      async send({ title, markdown }) {
        const answer = await postJson(wecom.webhook, {
          msgtype: 'markdown',
          markdown: { content: `## ${title}\n${markdown}` },
        });
        checkCode(answer, 'errcode', 'errmsg');
      },
    });
  }
  if (dingtalk) {
    list.push({
      name: 'dingtalk',
      async send({ title, markdown }) {
        const url = new URL('/robot/send', dingtalk.apiBase);
        url.searchParams.set('access_token', dingtalk.token);
        if (dingtalk.secret) {
          const timestamp = String(Date.now());
          const sign = createHmac('sha256', dingtalk.secret)
            .update(`${timestamp}\n${dingtalk.secret}`)
            .digest('base64');
          url.searchParams.set('timestamp', timestamp);
          url.searchParams.set('sign', sign);
        }
        const text = withKeyword(dingtalk.keyword, `## ${title}\n${markdown}`);
        checkCode(await postJson(url.href, { msgtype: 'markdown', markdown: { title, text } }), 'errcode', 'errmsg');
      },
    });
  }
  if (lark) {
    list.push({
      name: 'lark',
      async send({ title, markdown }) {
        const body: Record<string, unknown> = {
          msg_type: 'text',
          content: { text: withKeyword(lark.keyword, `${title}\n${markdown}`) },
        };
        if (lark.secret) {
          const timestamp = String(Math.floor(Date.now() / 1000));
          // Lark signs with the key `timestamp\nsecret` over an empty message.
          body.timestamp = timestamp;
          body.sign = createHmac('sha256', `${timestamp}\n${lark.secret}`).update('').digest('base64');
        }
        const url = new URL(`/open-apis/bot/v2/hook/${encodeURIComponent(lark.token)}`, lark.apiBase);
        checkCode(await postJson(url.href, body), 'code', 'msg');
      },
    });
  }
  if (pushdeer) {
    list.push({
      name: 'pushdeer',
      async send({ title, markdown }) {
        const url = new URL('/message/push', pushdeer.url);
        const answer = await postJson(url.href, {
          pushkey: pushdeer.pushkey,
          text: title,
          desp: markdown,
          type: 'markdown',
        });
        checkCode(answer, 'code', 'msg');
      },
    });
  }
  if (telegram) {
    const dispatcher = telegram.proxy ? new ProxyAgent(telegram.proxy) : undefined;
    list.push({
      name: 'telegram',
      async send({ title, markdown }) {
        const url = new URL(`/bot${telegram.botApiKey}/sendMessage`, telegram.apiBase);
        const answer = await postJson(
          url.href,
          { chat_id: telegram.chatId, text: `${title}\n\n${markdown}` },
          dispatcher,
        );
        if (typeof answer === 'object' && answer !== null && (answer as { ok?: unknown }).ok === false) {
          throw new Error(String((answer as { description?: unknown }).description ?? 'telegram refused the message'));
        }
      },
    });
  }
  return list;
}

export function createNotifier(
  config: NotifyConfig,
  deps: { mailer: Mailer; rootEmail(): Promise<string | undefined>; logger: Pick<Logger, 'warn'> },
): Notifier {
  const list = targets(config, deps);
  return {
    names: list.map((target) => target.name),
    async notify(notification) {
      await Promise.all(
        list.map((target) =>
          target.send(notification).catch((error: unknown) => {
            // The reason only: webhook URLs and bot keys hold secrets and are never logged.
            const reason = error instanceof Error ? error.message.split('\n')[0] : 'unknown error';
            deps.logger.warn({ notifier: target.name, reason }, 'sending a notification failed');
          }),
        ),
      );
    },
  };
}

/** The message when the relay or a balance check disables a channel. */
export function channelDisabledNotice(channel: { id: number; name: string }, reason: string): Notification {
  return {
    title: `Channel disabled: ${channel.name} (#${channel.id})`,
    markdown: `Channel **${channel.name}** (#${channel.id}) has been disabled.\n\nReason: ${reason}`,
  };
}
