import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayCallback, GatewayCallbackResult, PaymentGateway } from '../../src/payments/gateway.js';

export interface NotifyReceiver {
  /** The notify URL to register (`…/api/payment/notify/<uuid>`). */
  url: string;
  results: GatewayCallbackResult[];
  close(): Promise<void>;
}

/**
 * Stands in for `ANY /api/payment/notify/:uuid` in gateway-only tests: hands the callback to the
 * gateway exactly as the route does (raw bytes, lower-case headers) and answers with the
 * gateway's own answer, so the simulator sees what Stripe would see.
 */
export async function startNotifyReceiver<Config extends Record<string, unknown>>(
  gateway: PaymentGateway<Config>,
  config: () => Config,
  uuid = 'a'.repeat(32),
): Promise<NotifyReceiver> {
  const results: GatewayCallbackResult[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://receiver.local');
    const headers: GatewayCallback['headers'] = {};
    for (const [name, value] of Object.entries(request.headers))
      headers[name] = Array.isArray(value) ? value[0] : value;
    const result = await gateway.verify(
      config(),
      {
        method: request.method ?? 'POST',
        query: Object.fromEntries(url.searchParams),
        headers,
        rawBody: Buffer.concat(chunks),
      },
      { uuid },
    );
    results.push(result);
    const answer = gateway.answer(result.kind === 'rejected' ? 'fail' : 'ok');
    response.writeHead(answer.status, { 'content-type': answer.contentType });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payment/notify/${uuid}`,
    results,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
