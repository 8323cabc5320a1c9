import { describe, expect, it } from 'vitest';
import { canDoAnything, permissionsFor } from './userPermissions.js';

const root = { id: 1, role: 100 };
const admin = { id: 2, role: 10 };
const otherAdmin = { id: 3, role: 10 };
const user = { id: 4, role: 1 };
const reliable = { id: 5, role: 3 };

describe('permissionsFor', () => {
  it('lets root do everything to a common user, including making them an admin', () => {
    expect(permissionsFor(root, user)).toEqual({
      edit: true,
      quota: true,
      status: true,
      delete: true,
      promote: true,
      demote: false,
      setReliable: true,
    });
  });

  it('lets root manage and demote an admin', () => {
    expect(permissionsFor(root, admin)).toMatchObject({ status: true, delete: true, promote: false, demote: true });
  });

  it('lets root edit itself and change its own quota, but never disable, delete or re-role root', () => {
    expect(permissionsFor(root, root)).toEqual({
      edit: true,
      quota: true,
      status: false,
      delete: false,
      promote: false,
      demote: false,
      setReliable: false,
    });
  });

  it('lets an admin manage common users but never make admins', () => {
    expect(permissionsFor(admin, user)).toEqual({
      edit: true,
      quota: true,
      status: true,
      delete: true,
      promote: false,
      demote: false,
      setReliable: true,
    });
  });

  it('lets an admin manage a reliable user and make them common again, but not reliable twice', () => {
    expect(permissionsFor(admin, reliable)).toEqual({
      edit: true,
      quota: true,
      status: true,
      delete: true,
      promote: false,
      demote: true,
      setReliable: false,
    });
  });

  it('gives an admin nothing on another admin or on root', () => {
    for (const target of [otherAdmin, root]) {
      expect(canDoAnything(permissionsFor(admin, target))).toBe(false);
    }
  });

  it('lets an admin edit its own row (the display name), nothing else: its row is not locked', () => {
    expect(permissionsFor(admin, admin)).toEqual({
      edit: true,
      quota: false,
      status: false,
      delete: false,
      promote: false,
      demote: false,
      setReliable: false,
    });
  });
});
