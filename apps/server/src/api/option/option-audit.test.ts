import { describe, expect, it } from 'vitest';
import { auditRowsOf, onlyRow } from '../../../test/api/audit-rows.js';
import { useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';

/** Issue 36: settings (secrets masked) and the Telegram bot's menus leave audit rows. */
describe.each(availableDialects)('settings and Telegram menu audit rows on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  const rowsOf = (change: () => Promise<unknown>) => auditRowsOf(s.t.database, change);
  const put = (key: string, value: unknown, cookie = s.root) => s.call('PUT', '/api/option/', cookie, { key, value });
  const saved = async (key: string, value: unknown) => expect((await put(key, value)).statusCode).toBe(200);

  it('records a setting with its value before and after, the default before the first write', async () => {
    const first = onlyRow(await rowsOf(() => saved('SystemName', 'Audit Hub')), 'option', 'update');
    expect(first).toMatchObject({ actor_name: 'root', target_id: 'SystemName', target_name: 'SystemName' });
    expect(first.changes).toEqual({ value: { before: 'One Hub', after: 'Audit Hub' } });
    const second = onlyRow(await rowsOf(() => saved('QuotaForNewUser', 100)), 'option', 'update');
    expect(second.changes).toEqual({ value: { before: '0', after: '100' } });
    // Saving the value it already has is no change.
    expect(await rowsOf(() => saved('SystemName', 'Audit Hub'))).toEqual([]);
  });

  it('records a secret setting as changed, with its value nowhere in the row', async () => {
    const secret = 'gh-client-secret-value-0123456789';
    const rows = await rowsOf(async () => {
      await saved('GitHubClientSecret', secret);
      await saved('GitHubClientSecret', `${secret}-rotated`);
    });
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ resource: 'option', action: 'update', target_id: 'GitHubClientSecret' });
      expect(row.changes).toEqual({ value: { secret: true } });
      expect(row.raw).not.toContain('gh-client-secret');
    }
  });

  it('records nothing for a refused setting', async () => {
    const rows = await rowsOf(async () => {
      expect((await put('NoSuchOption', 'x')).statusCode).toBe(400);
      expect((await put('QuotaForNewUser', 'many')).statusCode).toBe(400);
      expect((await put('TurnstileCheckEnabled', 'true')).statusCode).toBe(400);
      expect((await put('SystemName', 'Mine', s.plain)).statusCode).toBe(403);
    });
    expect(rows).toEqual([]);
  });

  it('records Telegram menus created, updated and deleted', async () => {
    const menu = { command: 'audit', description: 'About', parse_mode: '', reply_message: 'Hello' };
    let id = 0;
    const created = await rowsOf(async () => {
      const response = await s.call('POST', '/api/option/telegram/', s.root, menu);
      expect(response.statusCode).toBe(200);
      id = response.json().data.id;
    });
    const createdRow = onlyRow(created, 'telegram', 'create');
    expect(createdRow).toMatchObject({ target_id: String(id), target_name: '/audit' });
    expect(createdRow.changes).toMatchObject({ command: { after: 'audit' }, reply_message: { after: 'Hello' } });

    const updated = await rowsOf(() =>
      s.call('POST', '/api/option/telegram/', s.root, { ...menu, id, reply_message: 'Hi' }),
    );
    expect(onlyRow(updated, 'telegram', 'update').changes).toEqual({
      reply_message: { before: 'Hello', after: 'Hi' },
    });

    const refused = await rowsOf(async () => {
      const other = { ...menu, command: 'other' };
      expect((await s.call('POST', '/api/option/telegram/', s.root, other)).statusCode).toBe(200);
      const clash = await s.call('POST', '/api/option/telegram/', s.root, { ...menu, id, command: 'other' });
      expect(clash.statusCode).toBe(409);
      expect(
        (await s.call('POST', '/api/option/telegram/', s.root, { ...menu, command: 'ghost', id: 999999 })).statusCode,
      ).toBe(404);
    });
    expect(refused.map((row) => row.action)).toEqual(['create']);

    const deleted = await rowsOf(() => s.call('DELETE', `/api/option/telegram/${id}`, s.root));
    expect(onlyRow(deleted, 'telegram', 'delete').changes).toMatchObject({ command: { before: 'audit' } });
    expect(await rowsOf(() => s.call('DELETE', `/api/option/telegram/${id}`, s.root))).toEqual([]);
  });
});
