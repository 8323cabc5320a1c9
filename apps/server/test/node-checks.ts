import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/**
 * The two checks of several One Hub nodes on one database and one Redis (issue 38), run by `npm
 * run bench:nodes` and the four-node test against real processes: no balance is overspent when
 * every node spends it at once, and a key disabled on one node is refused by every node within a
 * second. Both talk to the nodes over HTTP only, and read the books straight from PostgreSQL.
 */

const chatBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });

/** Calls the management API of `base` with a root access token or a session cookie. */
export async function manage(
  base: string,
  auth: { token?: string; cookie?: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: unknown; cookie: string }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(auth.token ? { authorization: auth.token } : {}),
      ...(auth.cookie ? { cookie: auth.cookie } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { success: boolean; message: string; data?: unknown };
  if (!response.ok || json.success === false) throw new Error(`${method} ${path}: ${response.status} ${json.message}`);
  const cookie = response.headers
    .getSetCookie()
    .map((entry) => entry.split(';')[0])
    .join('; ');
  return { status: response.status, data: json.data, cookie };
}

/**
 * gpt-4o-mini at 1 per prompt token and 2 per answer token, in place of the built-in price, so a
 * balance of a few thousand pays for some hundred chats. The other nodes learn it through Redis.
 */
export async function setRoundPrice(base: string, rootToken: string, channelType: number): Promise<void> {
  const root = { token: rootToken };
  await manage(base, root, 'DELETE', '/api/prices/single/gpt-4o-mini');
  await manage(base, root, 'POST', '/api/prices/single', {
    model: 'gpt-4o-mini',
    type: 'tokens',
    channel_type: channelType,
    input: 1,
    output: 2,
    locked: false,
  });
}

/** A new user holding `quota` and an API key that spends it (not a limit of its own). */
export async function spenderWithKey(
  base: string,
  rootToken: string,
  username: string,
  quota: number,
): Promise<{ userId: number; key: string }> {
  const root = { token: rootToken };
  const password = 'spender-password-0123456789';
  await manage(base, root, 'POST', '/api/user/', { username, password });
  const found = (await manage(base, root, 'GET', `/api/user/?keyword=${username}`)).data as {
    data: Array<{ id: number; username: string; quota: number }>;
  };
  const user = found.data.find((entry) => entry.username === username);
  if (!user) throw new Error(`user ${username} was not created`);
  // Whatever a new user is given by the settings, the balance becomes exactly `quota`.
  if (quota !== Number(user.quota)) {
    await manage(base, root, 'POST', `/api/user/quota/${user.id}`, { quota: quota - Number(user.quota) });
  }
  const { cookie } = await manage(base, {}, 'POST', '/api/user/login', { username, password });
  const token = (
    await manage(base, { cookie }, 'POST', '/api/token/', {
      name: 'spender',
      expired_time: -1,
      remain_quota: 0,
      unlimited_quota: true,
    })
  ).data as { key: string };
  return { userId: user.id, key: token.key };
}

/** One non-stream chat on `base` with `key`; its status (0 when the connection failed). */
export async function chat(base: string, key: string): Promise<number> {
  const response = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: chatBody,
  }).catch(() => undefined);
  await response?.arrayBuffer().catch(() => undefined);
  return response?.status ?? 0;
}

/**
 * Spends with `key` on every node at once, `perNode` requests in flight on each, until every node
 * has refused it `refusalsToStop` times or `maxRequests` were sent: the statuses seen, counted.
 */
export async function spendOnAll(
  bases: string[],
  key: string,
  { perNode = 8, maxRequests = 2000, refusalsToStop = 3 } = {},
): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const refused = bases.map(() => 0);
  let sent = 0;
  await Promise.all(
    bases.flatMap((base, node) =>
      Array.from({ length: perNode }, async () => {
        while (sent < maxRequests && refused.some((count) => count < refusalsToStop)) {
          sent++;
          const status = await chat(base, key);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status !== 200) refused[node] = (refused[node] ?? 0) + 1;
        }
      }),
    ),
  );
  return statuses;
}

/** The user's balance in the database and the sum of its consume logs' charges. */
export async function booksOf(databaseUrl: string, userId: number): Promise<{ balance: number; charged: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const balance = await client.query('select quota from users where id = $1', [userId]);
    const charged = await client.query(
      'select coalesce(sum(quota), 0) as charged from logs where user_id = $1 and type = 2',
      [userId],
    );
    return { balance: Number(balance.rows[0]?.quota), charged: Number(charged.rows[0]?.charged) };
  } finally {
    await client.end();
  }
}

/**
 * Reads the books until balance + charges equals `start` (settlement reaches the database a little
 * after the answers), for at most `timeoutMs`; the last reading either way.
 */
export async function settledBooks(databaseUrl: string, userId: number, start: number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const books = await booksOf(databaseUrl, userId);
    if (books.balance + books.charged === start || Date.now() > deadline) return books;
    await sleep(200);
  }
}

/**
 * Disables `tokenId` through the admin API of the first node after every node has served `key`
 * (so each holds it in its cache), then asks each node until it refuses the key, for at most
 * `timeoutMs`: each node's milliseconds from the disabling answer to its first refusal, or null
 * for a node that still served the key.
 */
export async function disableAndWatch(
  bases: string[],
  rootToken: string,
  key: string,
  tokenId: number,
  timeoutMs = 1000,
): Promise<Array<number | null>> {
  const models = (base: string) =>
    fetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${key}` } }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });
  for (const base of bases) {
    const status = await models(base);
    if (status !== 200) throw new Error(`${base} refused the key before it was disabled (${status})`);
  }
  await manage(bases[0] ?? '', { token: rootToken }, 'PUT', '/api/token/admin?status_only=1', {
    id: tokenId,
    status: 2,
  });
  const disabledAt = performance.now();
  return Promise.all(
    bases.map(async (base) => {
      while (performance.now() - disabledAt <= timeoutMs) {
        if ((await models(base)) === 401) return performance.now() - disabledAt;
        await sleep(20);
      }
      return null;
    }),
  );
}
