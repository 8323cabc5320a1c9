import { fieldError } from '../../../platform/errors.js';
import type { ChatAdapter } from '../types.js';
import { upstreamObject } from '../values.js';
import { chatInput, completionOf } from './chat.js';
import { imageGenerations } from './images.js';
import {
  createPredictionCall,
  DEFAULT_POLL_TIMING,
  finishedPrediction,
  type PollTiming,
  parseReplicateError,
} from './prediction.js';

/**
 * Replicate (`api.replicate.com`): chat with language models and image generation, each one
 * prediction of the channel's model (`owner/name`), waited for and polled to its end
 * (prediction.ts). Chat is answered whole: a streamed prediction is read from another address
 * (`urls.stream`) than the call that creates it, which the relay's one-call stream cannot follow,
 * so `stream: true` is refused with a 400 saying so (another channel may stream the model).
 */

export const REPLICATE_FORMAT = 'replicate';

export function createReplicateAdapter(timing: PollTiming = DEFAULT_POLL_TIMING): ChatAdapter {
  return {
    format: REPLICATE_FORMAT,
    endpoints: { '/v1/images/generations': imageGenerations(timing) },
    buildChat(request, context) {
      if (context.stream) {
        throw fieldError('stream', 'Replicate channels answer chats whole; send the request without stream: true');
      }
      return createPredictionCall(context, chatInput(request));
    },
    async awaitChat(body, context, follow) {
      const prediction = await finishedPrediction(body, context, follow, timing);
      return Buffer.from(JSON.stringify(prediction));
    },
    parseChat: (body, context) => completionOf(upstreamObject(body, 'prediction'), context),
    decodeStream() {
      throw new Error('Replicate chats are not streamed');
    },
    parseError: parseReplicateError,
  };
}
