import { AppError } from '../../platform/errors.js';
import type { RelayDeps, RelayInput } from '../exchange/types.js';
import { modelWithoutSearch, SEARCH_SWITCH } from '../routing/model-name.js';

/**
 * Reads the `#search` switch off a chat request's model: true when it was there, and the request
 * names the model without it from then on (routing, prices, logs and the upstream see `gpt-4o`).
 * Without a searcher configured the switch cannot be honoured: a 400 naming `model`, before
 * anything is reserved or sent.
 */
export function takeSearchSwitch(deps: Pick<RelayDeps, 'webSearch'>, input: RelayInput): boolean {
  const model = modelWithoutSearch(input.model);
  if (model === undefined) return false;
  if (!deps.webSearch) {
    throw new AppError(
      'bad_request',
      `model: ${input.model} asks for web search (${SEARCH_SWITCH}), which is not configured on this server`,
      { details: { code: 'web_search_not_configured', param: 'model' } },
    );
  }
  input.model = model;
  input.fields = { ...input.fields, model };
  return true;
}
