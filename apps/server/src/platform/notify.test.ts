import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MailCatcher, startMailCatcher } from '../../test/api/account/mail-catcher.js';
import { createMailer } from './mail.js';
import { channelDisabledNotice, createNotifier, type NotifyConfig } from './notify.js';

interface Received {
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

/** One local server standing in for every webhook service; `/fail/…` paths answer an error. */
async function startHooks(): Promise<{ origin: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer(async (request, response) => {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const url = new URL(request.url ?? '/', 'http://local');
    received.push({ path: url.pathname, query: url.searchParams, body: JSON.parse(Buffer.concat(parts).toString()) });
    response.setHeader('content-type', 'application/json');
    if (url.pathname.includes('/fail'))
      response.end(JSON.stringify({ errcode: 310000, errmsg: 'keywords not in content' }));
    else if (url.pathname.startsWith('/bot')) response.end(JSON.stringify({ ok: true, result: {} }));
    else response.end(JSON.stringify({ errcode: 0, code: 0 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

describe('operator notifications', () => {
  let hooks: Awaited<ReturnType<typeof startHooks>>;
  let smtp: MailCatcher;
  const warnings: Array<Record<string, unknown>> = [];
  const logger = { warn: (fields: Record<string, unknown>) => warnings.push(fields) };
  const mailer = () =>
    createMailer(() => ({
      server: '127.0.0.1',
      port: smtp.port,
      account: smtp.user,
      from: 'hub@example.com',
      token: smtp.password,
    }));

  beforeAll(async () => {
    hooks = await startHooks();
    smtp = await startMailCatcher();
  });
  afterAll(async () => {
    await new Promise((resolve) => hooks.server.close(resolve));
    await smtp.close();
  });
  beforeEach(() => {
    hooks.received.length = 0;
    smtp.mails.length = 0;
    warnings.length = 0;
  });

  const everyService = (): NotifyConfig => ({
    email: { disabled: false },
    wecom: { webhook: `${hooks.origin}/cgi-bin/webhook/send?key=wecom-key` },
    dingtalk: { token: 'ding-token', secret: 'SECding-secret', keyword: 'OneHub', apiBase: hooks.origin },
    lark: { token: 'lark-token', secret: 'lark-secret', apiBase: hooks.origin },
    pushdeer: { pushkey: 'PDU123', url: hooks.origin },
    telegram: { botApiKey: '123:telegram-key', chatId: '-1001', apiBase: hooks.origin },
  });

  it('sends a notice to every configured service, signed where the service asks for it', async () => {
    const notifier = createNotifier(everyService(), {
      mailer: mailer(),
      rootEmail: async () => 'root@example.com',
      logger,
    });
    expect(notifier.names).toEqual(['email', 'wecom', 'dingtalk', 'lark', 'pushdeer', 'telegram']);
    await notifier.notify(channelDisabledNotice({ id: 7, name: 'openai-main' }, 'HTTP 401: invalid key'));
    expect(warnings).toEqual([]);

    const at = (prefix: string) => {
      const found = hooks.received.find((entry) => entry.path.startsWith(prefix));
      if (!found) throw new Error(`nothing was sent to ${prefix}`);
      return found;
    };
    const wecom = at('/cgi-bin/webhook/send');
    expect(wecom.query.get('key')).toBe('wecom-key');
    expect((wecom.body.markdown as { content: string }).content).toContain('openai-main');

    const ding = at('/robot/send');
    const timestamp = ding.query.get('timestamp') ?? '';
    expect(ding.query.get('access_token')).toBe('ding-token');
    expect(ding.query.get('sign')).toBe(
      createHmac('sha256', 'SECding-secret').update(`${timestamp}\nSECding-secret`).digest('base64'),
    );
    expect((ding.body.markdown as { text: string }).text.startsWith('OneHub\n')).toBe(true);

    const lark = at('/open-apis/bot/v2/hook/lark-token');
    const larkTime = String(lark.body.timestamp);
    expect(lark.body.sign).toBe(createHmac('sha256', `${larkTime}\nlark-secret`).update('').digest('base64'));
    expect((lark.body.content as { text: string }).text).toContain('invalid key');

    expect(at('/message/push').body).toMatchObject({ pushkey: 'PDU123', type: 'markdown' });
    expect(at('/bot123:telegram-key/sendMessage').body).toMatchObject({ chat_id: '-1001' });

    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]?.to).toEqual(['root@example.com']);
    expect(smtp.mails[0]?.text).toContain('openai-main');
  });

  it('logs a refused notice by service and reason, without its secrets, and still sends the others', async () => {
    const config: NotifyConfig = {
      email: { disabled: true },
      wecom: { webhook: `${hooks.origin}/fail/webhook?key=secret-wecom-key` },
      pushdeer: { pushkey: 'PDU-secret', url: hooks.origin },
    };
    const notifier = createNotifier(config, { mailer: mailer(), rootEmail: async () => 'root@example.com', logger });
    await notifier.notify({ title: 'Channel test finished', markdown: 'Tested 3 channels' });
    expect(hooks.received.map((entry) => entry.path)).toEqual(['/fail/webhook', '/message/push']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ notifier: 'wecom' });
    expect(String(warnings[0]?.reason)).toContain('310000');
    expect(JSON.stringify(warnings)).not.toContain('secret-wecom-key');
    expect(smtp.mails).toHaveLength(0);
  });

  it('mails the configured address, or nobody when the root user has none and SMTP is not set', async () => {
    const configured = createNotifier(
      { email: { disabled: false, to: 'ops@example.com' } },
      { mailer: mailer(), rootEmail: async () => 'root@example.com', logger },
    );
    await configured.notify({ title: 't', markdown: 'm' });
    expect(smtp.mails.map((mail) => mail.to)).toEqual([['ops@example.com']]);

    const unset = createNotifier(
      { email: { disabled: false } },
      {
        mailer: createMailer(() => ({ server: '', port: 0, account: '', from: '', token: '' })),
        rootEmail: async () => '',
        logger,
      },
    );
    await unset.notify({ title: 't', markdown: 'm' });
    expect(smtp.mails).toHaveLength(1);
    expect(warnings).toEqual([]);
  });
});
