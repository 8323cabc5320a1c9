import { AppError } from '../../platform/errors.js';

/**
 * Model names reach upstream URL paths (Gemini and Vertex `models/{model}:generateContent`, Azure
 * deployments, Bedrock model ids), with the channel's key attached. Real names use letters,
 * digits and `-` `_` `.`, and some also `/` (`meta/llama-3.1-8b-instruct`, `@cf/meta/…`,
 * `accounts/fireworks/models/…`), `:` (Bedrock `anthropic.claude-3-5-sonnet-20240620-v1:0`,
 * Ollama `llama3:8b`), `@` (Vertex `claude-3-5-sonnet-v2@20241022`) and `#` (our `#thinking`
 * switch). Nothing else is accepted — no `%`, `?`, `&`, `=`, `\`, spaces — and no path segment
 * may be empty, `.` or `..`; the adapters also encode every segment they put in a URL.
 */
const MODEL_NAME = /^[A-Za-z0-9._:@#/-]+$/;

export function modelNameProblem(model: string): string | undefined {
  if (model === '') return 'model is required';
  if (!MODEL_NAME.test(model)) {
    return 'model may contain only letters, digits and the characters - _ . : @ # /';
  }
  if (model.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return 'model must not contain empty, "." or ".." path segments';
  }
  return undefined;
}

/** A 400 naming `model` for a name that could change the upstream URL it is put into. */
export function checkModelName(model: string): void {
  const problem = modelNameProblem(model);
  if (problem) {
    throw new AppError('bad_request', problem, { details: { code: 'invalid_model_name', param: 'model' } });
  }
}

/** The switch a chat model name may end in to be answered with web search results (relay/web-search/). */
export const SEARCH_SWITCH = '#search';

/** `gpt-4o#search` → `gpt-4o`; undefined for a name without the switch. */
export function modelWithoutSearch(model: string): string | undefined {
  return model.endsWith(SEARCH_SWITCH) ? model.slice(0, -SEARCH_SWITCH.length) : undefined;
}
