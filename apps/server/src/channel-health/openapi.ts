import { idParam } from '@one-hub/contracts';
import { z } from 'zod';
import type { ResourceOperations } from '../api/openapi/operation.js';
import { checkBody } from './check.js';
import { providerModelsBody } from './models.js';
import { testQuery } from './test-all.js';

/** The beacon image's name: the id the image probe opened, with or without `.png`. */
const imageParam = z.object({ id: z.string() });

export const channelTestOperations: ResourceOperations = {
  tag: 'Channel tests',
  description: 'Tests, balances and model lists that call the upstreams.',
  operations: [
    {
      method: 'get',
      path: '/api/channel/test/status',
      summary: 'Progress of the test of all channels',
      access: 'admin',
    },
    {
      method: 'get',
      path: '/api/channel/test/:id',
      summary: 'Test one channel',
      description: 'Answers `{success, message, time}`; a failed test is a 502.',
      access: 'admin',
      params: idParam,
      query: testQuery,
      answer: { contentTypes: ['application/json'], description: '`{success, message, time}`: the test passed.' },
    },
    { method: 'get', path: '/api/channel/test', summary: 'Start testing all channels', access: 'admin' },
    {
      method: 'get',
      path: '/api/channel/update_balance/:id',
      summary: 'Refresh one channel’s balance',
      access: 'admin',
      params: idParam,
      answer: { contentTypes: ['application/json'], description: '`{success, message, balance}`.' },
    },
    { method: 'get', path: '/api/channel/update_balance', summary: 'Refresh every channel’s balance', access: 'admin' },
    {
      method: 'post',
      path: '/api/channel/provider_models_list',
      summary: 'Ask the upstream which models a key offers',
      access: 'admin',
      body: providerModelsBody,
    },
    {
      method: 'post',
      path: '/api/sse/channel/check',
      summary: 'Probe a channel’s models, streaming a result per model',
      access: 'admin',
      body: checkBody,
      answer: {
        contentTypes: ['text/event-stream'],
        description: 'Server-sent events: `{type: "result", data}` per model, then `{type: "done"}`.',
      },
    },
    {
      method: 'get',
      path: '/api/image/:id',
      summary: 'The image probe’s beacon (records who fetched it)',
      access: 'public',
      params: imageParam,
      answer: { contentTypes: ['image/png'], description: 'A PNG image.' },
    },
  ],
};
