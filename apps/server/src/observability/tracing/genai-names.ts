import { providerByType } from '../../domain/channel-types/registry.js';

/**
 * Names of the GenAI semantic conventions for what the relay serves: the operation of each
 * route and the provider of each channel type. Where the conventions name no value (image
 * generation, a vendor they do not list) ours are used, as they allow.
 */

const OPERATIONS: Readonly<Record<string, string>> = {
  '/v1/chat/completions': 'chat',
  '/v1/messages': 'chat',
  '/claude/v1/messages': 'chat',
  '/v1/responses': 'chat',
  '/v1/completions': 'text_completion',
  '/v1/embeddings': 'embeddings',
  '/gemini/:version/models/*': 'generate_content',
};

/** `chat` for the chat surfaces; other routes by their path: `/v1/images/generations` → `images.generations`. */
export function operationOf(route: string): string {
  return (
    OPERATIONS[route] ??
    route
      .replace(/^\/v1\//, '/')
      .split('/')
      .filter((part) => part !== '' && !part.startsWith(':') && part !== '*')
      .join('.')
  );
}

/** The conventions' provider names, by channel-type slug; other types go by their slug. */
const PROVIDERS: Readonly<Record<string, string>> = {
  openai: 'openai',
  azure: 'azure.ai.openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  palm: 'gcp.gen_ai',
  vertexai: 'gcp.vertex_ai',
  bedrock: 'aws.bedrock',
  cohere: 'cohere',
  deepseek: 'deepseek',
  groq: 'groq',
  mistral: 'mistral_ai',
  xai: 'x_ai',
  perplexity: 'perplexity',
};

export function providerNameOf(channelType: number): string {
  const slug = providerByType(channelType)?.slug ?? String(channelType);
  return PROVIDERS[slug] ?? slug;
}
