import { providerType } from '../src/domain/channel-types/registry.js';

/** A mock upstream a channel can point at: where it listens and the key it accepts. */
export interface ChannelUpstream {
  url: string;
  behaviour: { apiKey: string };
}

/**
 * Adds an OpenAI channel to `upstream` serving gpt-4o-mini to the default group, as root, through
 * `post`: each test calls the management API its own way (HTTP to a node, inject) and gets its own
 * answer back. `fields` change or add to the channel's (a name, other models, a priority).
 */
export function createTestChannel<Answer>(
  upstream: ChannelUpstream,
  post: (path: string, body: Record<string, unknown>) => Promise<Answer>,
  fields: Record<string, unknown> = {},
): Promise<Answer> {
  return post('/api/channel/', {
    name: 'mock',
    type: providerType('openai'),
    key: upstream.behaviour.apiKey,
    base_url: upstream.url,
    models: 'gpt-4o-mini',
    group: 'default',
    ...fields,
  });
}
