import type { FastifyInstance } from 'fastify';

/**
 * Confirms the password from a signed-in browser (POST /api/webauthn/password_check) and returns
 * the cookie header that may then add passkeys: the session and the short-lived password check.
 */
export async function withPasswordCheck(app: FastifyInstance, cookie: string, password = 'password-123') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/webauthn/password_check',
    headers: { cookie },
    payload: { password },
  });
  if (response.statusCode !== 200) throw new Error(`password check answered ${response.statusCode}: ${response.body}`);
  const stamp = response.cookies.find((entry) => entry.name === 'password_check');
  if (!stamp) throw new Error('no password_check cookie');
  return `${cookie}; password_check=${stamp.value}`;
}
