import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.js';

/** `GET /api/user/payment` (reference §1.4): the Top up page asks it on every visit. */
describe('payment gateways offered to a user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('answers a signed-in user with the enabled gateways: none while no gateway exists', async () => {
    const { cookie } = await t.createUser('payer');
    const response = await t.app.inject({ method: 'GET', url: '/api/user/payment', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: '', data: [] });
  });

  it('refuses an anonymous caller with 401', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/payment' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false });
  });
});
