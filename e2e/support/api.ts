/** Small helpers that prepare server state for browser tests through the management API. */
export interface AdminApi {
  setOption(key: string, value: string): Promise<void>;
  createUser(user: { username: string; password: string; display_name?: string }): Promise<void>;
  addQuota(userId: number, quota: number): Promise<void>;
}

export function adminApi(origin: string, accessToken: string): AdminApi {
  const call = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: accessToken, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const payload = (await response.json()) as { success?: boolean; message?: string };
    if (!response.ok || !payload.success) {
      throw new Error(`${method} ${path} failed: ${response.status} ${payload.message ?? ''}`);
    }
  };
  return {
    setOption: (key, value) => call('PUT', '/api/option/', { key, value }),
    createUser: (user) => call('POST', '/api/user/', user),
    addQuota: (userId, quota) => call('POST', `/api/user/quota/${userId}`, { quota }),
  };
}

/** Who makes a call: an access token (root or a user's) or a signed-in session's cookie. */
export interface ApiAuth {
  token?: string;
  cookie?: string;
}

/** Who a credential is: a session cookie (`session=…`) or else an access token. */
export const authOf = (credential: string): ApiAuth =>
  credential.startsWith('session=') ? { cookie: credential } : { token: credential };

/** One API call; answers the envelope's `data`, throws on an HTTP error or `success: false`. */
export async function apiCall<T>(
  origin: string,
  method: string,
  path: string,
  auth: ApiAuth,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth.token) headers.authorization = auth.token;
  if (auth.cookie) headers.cookie = auth.cookie;
  const response = await fetch(`${origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const payload = (await response.json()) as { success?: boolean; message?: string; data: T };
  if (!response.ok || !payload.success) throw new Error(`${method} ${path}: ${response.status} ${payload.message}`);
  return payload.data;
}

/** Signs in through the API and answers the session cookie (`session=…`) for later calls. */
export async function sessionCookie(origin: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('session='));
  if (!response.ok || !cookie) throw new Error(`no session for ${username}: ${response.status}`);
  return cookie.split(';')[0] ?? '';
}

/**
 * Asks again until `read` answers something `done` accepts: logs and roll-ups settle in batches.
 * For hooks (beforeAll), where expect.poll does not work; inside a test, prefer expect.poll.
 */
export async function settle<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not settled after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
