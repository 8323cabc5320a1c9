import { idParam, telegramMenuBody, telegramMenuListQuery } from '@one-hub/contracts';
import { z } from 'zod';
import type { ResourceOperations } from '../openapi/operation.js';

export const telegramOperations: ResourceOperations = {
  tag: 'Telegram',
  description: 'The Telegram bot’s custom menus and state (root), and its webhook.',
  operations: [
    {
      method: 'get',
      path: '/api/option/telegram/',
      summary: 'List the bot’s menus',
      access: 'root',
      query: telegramMenuListQuery,
      paged: true,
    },
    {
      method: 'post',
      path: '/api/option/telegram/',
      summary: 'Create or update a menu',
      access: 'root',
      body: telegramMenuBody,
    },
    { method: 'get', path: '/api/option/telegram/status', summary: 'Whether the bot runs, and how', access: 'root' },
    {
      method: 'put',
      path: '/api/option/telegram/reload',
      summary: 'Restart the bot with the current settings',
      access: 'root',
    },
    { method: 'get', path: '/api/option/telegram/:id', summary: 'Read a menu', access: 'root', params: idParam },
    { method: 'delete', path: '/api/option/telegram/:id', summary: 'Delete a menu', access: 'root', params: idParam },
    {
      method: 'post',
      path: '/api/telegram/:token',
      summary: 'Telegram’s webhook deliveries',
      description: 'The path holds the bot token, the `X-Telegram-Bot-Api-Secret-Token` header the webhook secret.',
      access: 'webhook',
      params: z.object({ token: z.string() }),
      body: z.looseObject({ update_id: z.number().int() }),
    },
  ],
};
