import { BENCH_ROOT_TOKEN } from './processes.js';
/** Calls One Hub's management API as root; answers the `data` of a successful answer. */
export async function callApi(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  rootToken = BENCH_ROOT_TOKEN,
): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: rootToken, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { success: boolean; message: string; data?: unknown };
  if (!response.ok) throw new Error(`${method} ${path}: ${json.message}`);
  return json.data;
}

/** Gives a fresh One Hub a channel to the bench upstream, a price, quota and an API key. */
export async function prepareOneHub(base: string, rootToken: string, upstreamUrl: string): Promise<string> {
  const call = (method: string, path: string, body?: unknown) => callApi(base, method, path, body, rootToken);
  await call('POST', '/api/channel/', {
    name: 'bench',
    type: 1,
    key: 'sk-bench',
    base_url: upstreamUrl,
    models: 'gpt-4o-mini',
    group: 'default',
  });
  const groups = (await call('GET', '/api/user_group/?name=')) as {
    data: Array<{ id: number; symbol: string; name: string; ratio: number }>;
  };
  const group = groups.data.find((entry) => entry.symbol === 'default');
  // No per-user rate limit in the benchmark: it measures the gateway, not the limiter's refusals.
  if (group) await call('PUT', '/api/user_group/', { ...group, api_rate: 0 });
  await call('POST', '/api/user/quota/1', { quota: 1_000_000_000_000 });
  const token = (await call('POST', '/api/token/', {
    name: 'bench',
    expired_time: -1,
    remain_quota: 0,
    unlimited_quota: true,
  })) as {
    key: string;
  };
  return token.key;
}
