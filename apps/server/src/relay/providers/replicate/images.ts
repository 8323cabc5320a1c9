import { fieldError } from '../../../platform/errors.js';
import { imageCountOf, imageTypeOf, nearestAspectRatio, responseFormatOf, seedOf } from '../stability/images.js';
import type { AdapterContext, FollowUp, Json, WholeBodyAdapter } from '../types.js';
import { createPredictionCall, finishedPrediction, type PollTiming, replicateAuth } from './prediction.js';

/**
 * Image models on Replicate (black-forest-labs/flux-schnell, …): OpenAI's request becomes the
 * prediction's input (`prompt`, `aspect_ratio` nearest the `size`, `num_outputs` for `n > 1`,
 * `seed`), and any other field the client adds (`negative_prompt`, `output_format`, …) is passed
 * in as it is, since each model has inputs of its own. The output URLs are the answer's `url`s
 * (copied to image storage when it is configured: they expire); for `b64_json` each is downloaded
 * and inlined.
 */

const ASPECT_RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'] as const;
/** OpenAI's fields that are no model input. */
const OPENAI_FIELDS = new Set(['model', 'prompt', 'n', 'size', 'response_format', 'quality', 'style', 'user']);

function imageInput(request: Json): Json {
  const prompt = request.prompt;
  if (typeof prompt !== 'string' || !prompt) throw fieldError('prompt', 'a text prompt is required');
  const input: Json = {};
  for (const [field, value] of Object.entries(request)) {
    if (!OPENAI_FIELDS.has(field) && value !== undefined && value !== null) input[field] = value;
  }
  input.prompt = prompt;
  const aspectRatio = nearestAspectRatio(request, ASPECT_RATIOS);
  if (input.aspect_ratio === undefined && aspectRatio) input.aspect_ratio = aspectRatio;
  const n = imageCountOf(request);
  if (n > 1 && input.num_outputs === undefined) input.num_outputs = n;
  const seed = seedOf(request);
  if (seed !== undefined) input.seed = seed;
  return input;
}

function outputUrls(output: unknown): string[] {
  const list = Array.isArray(output) ? output : [output];
  if (list.length === 0 || !list.every((item) => typeof item === 'string' && item)) {
    throw new Error("the prediction's output is not a list of image URLs");
  }
  return list as string[];
}

const DATA_URL = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s;

/** An output file's bytes: a data URL's own, or downloaded (the key only to the channel's host). */
async function bytesOf(url: string, context: AdapterContext, follow: FollowUp): Promise<Buffer> {
  const inline = DATA_URL.exec(url);
  if (inline) return Buffer.from(inline[2] ?? '', 'base64');
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new Error(`the output ${url} is no URL`);
  const ownHost = new URL(url).origin === new URL(context.baseUrl).origin;
  const answer = await follow({ url, method: 'GET', headers: ownHost ? replicateAuth(context) : {} });
  return answer.body;
}

export function imageGenerations(timing: PollTiming): WholeBodyAdapter {
  return {
    build(request, context) {
      responseFormatOf(request); // refused before anything runs (and is paid for)
      return createPredictionCall(context, imageInput(request));
    },
    async parse(body, context, follow, request: Json = {}) {
      const format = responseFormatOf(request);
      const prediction = await finishedPrediction(body, context, follow, timing);
      const urls = outputUrls(prediction.output);
      const data =
        format === 'url'
          ? urls.map((url) => ({ url }))
          : await Promise.all(
              urls.map(async (url) => ({ b64_json: (await bytesOf(url, context, follow)).toString('base64') })),
            );
      return { created: context.now, data };
    },
    // Output files are deleted an hour after the prediction: image storage keeps a copy.
    async expiringImage(url, context, follow) {
      const bytes = await bytesOf(url, context, follow);
      return { bytes, contentType: imageTypeOf(bytes) ?? 'image/webp' };
    },
  };
}
