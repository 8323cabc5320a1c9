import { addChannelParameters, isPreAdded } from '../providers/channel-parameters.js';
import type { RouterChannel } from '../routing/router.js';
import type { Attempt, Endpoint, ExchangeCall } from './types.js';

/**
 * A channel whose `custom_parameter` says `pre_add: true` has its parameters merged into the
 * client's request as sent, in OpenAI's format, before the request is translated for the
 * channel: the translation then carries them to any provider. As in One Hub, only chat and
 * completion requests get them this way (`/v1/chat/completions`, `/v1/completions`); nothing is
 * merged into what is sent, on these endpoints or others. The client's input stays as it came, so
 * a retry on another channel starts from it.
 */

const PRE_ADD_PATHS = new Set(['/v1/chat/completions', '/v1/completions']);

export function withPreAddedParameters(
  attempt: Attempt,
  endpoint: Endpoint,
  channel: RouterChannel,
): ExchangeCall['attempt'] {
  const parameters = channel.custom_parameter;
  const { input } = attempt;
  if (!isPreAdded(parameters) || !PRE_ADD_PATHS.has(endpoint.path) || input.form) return attempt;
  const fields = { ...input.fields };
  const model = typeof fields.model === 'string' ? fields.model : input.model;
  addChannelParameters(fields, parameters, model, 'entry');
  // `chat` is left out: the translation is made again from the merged body.
  return { startedAt: attempt.startedAt, input: { model: input.model, stream: input.stream, fields } };
}
