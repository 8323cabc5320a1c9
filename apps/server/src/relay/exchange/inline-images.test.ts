import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEMINI, type NativeRelay, startNativeRelay } from '../../../test/native-relay.js';

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(128, 3)]);

/**
 * An OpenAI chat with an image by URL, relayed to Gemini (which takes images only inline): the
 * gateway fetches the image and sends its bytes; a URL on a private address is refused with 400
 * unless ChatImageAllowPrivate allows it, and nothing reaches the upstream then.
 */
describe('images by URL for upstreams that take them inline', () => {
  let relay: NativeRelay;
  let images: Server;
  let imageUrl = '';
  let fetches = 0;

  const ask = () =>
    relay.r.client.chat.completions.create({
      model: GEMINI,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: imageUrl } },
            { type: 'image_url', image_url: { url: imageUrl } },
          ],
        },
      ],
    });

  beforeAll(async () => {
    relay = await startNativeRelay({ claude: { input: 1, output: 1 }, gemini: { input: 1, output: 1 } });
    images = createServer((_request, response) => {
      fetches++;
      response.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/photo.jpg`;
  }, 60_000);
  afterAll(async () => {
    await relay?.close();
    await new Promise((resolve) => images?.close(resolve));
  });

  it('refuses an image on a private address while that is not allowed', async () => {
    const error = await ask().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((error as Error).message).toContain('private or loopback');
    expect(fetches).toBe(0);
    expect(relay.native.received).toHaveLength(0);
  });

  it('sends the fetched bytes inline, fetching a URL named twice once', async () => {
    expect((await relay.r.admin('PUT', '/api/option/', { key: 'ChatImageAllowPrivate', value: 'true' })).status).toBe(
      200,
    );
    const answer = await ask();
    expect(answer.choices[0]?.message.content).toBeTruthy();
    expect(fetches).toBe(1);
    const sent = relay.native.received.at(-1)?.body as { contents: Array<{ parts: Array<Record<string, unknown>> }> };
    const parts = sent.contents[0]?.parts ?? [];
    expect(parts[0]).toMatchObject({ text: 'What is in this picture?' });
    for (const part of parts.slice(1)) {
      expect(part).toEqual({ inlineData: { mimeType: 'image/jpeg', data: JPEG.toString('base64') } });
    }
    expect(JSON.stringify(sent)).not.toContain(imageUrl);
  });
});
