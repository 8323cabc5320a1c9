import { anthropicProvider } from './anthropic.js';
import { azureProvider, azureV1Provider } from './azure.js';
import { bedrockClaudeProvider, bedrockConverseProvider } from './bedrock.js';
import { cohereProvider } from './cohere.js';
import { geminiProvider } from './gemini.js';
import { openaiProvider } from './openai.js';
import type { ProviderEntry } from './scenario-mock.js';
import { baiduV1Provider } from './vendors/baidu-v1.js';
import { cozeProvider } from './vendors/coze.js';
import { hunyuanProvider } from './vendors/hunyuan.js';
import { openAiCompatibleProviders } from './vendors/openai-compatible.js';
import { replicateProvider } from './vendors/replicate.js';
import { vertexClaudeProvider, vertexGeminiProvider } from './vertex.js';

/** Every upstream the contract suite runs against: one line per provider (or per API of one). */
export const providers: ProviderEntry[] = [
  openaiProvider,
  azureProvider,
  azureV1Provider,
  anthropicProvider,
  geminiProvider,
  bedrockClaudeProvider,
  bedrockConverseProvider,
  vertexGeminiProvider,
  vertexClaudeProvider,
  cohereProvider,
  ...openAiCompatibleProviders,
  baiduV1Provider,
  hunyuanProvider,
  cozeProvider,
  replicateProvider,
];
