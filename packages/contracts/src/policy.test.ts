import { describe, expect, it } from 'vitest';
import { can, canComment, isAdmin, isOwner } from './policy';

const post = { author: { id: 7, name: 'Ann' } };
const row = { author_id: 7 };
const orphan = { author: { id: null, name: null } };

describe('isAdmin', () => {
  it('is true only with the admin role', () => {
    expect(isAdmin(['admin'])).toBe(true);
    expect(isAdmin(['paid-tier-2', 'admin'])).toBe(true);
    expect(isAdmin(['paid-tier-2'])).toBe(false);
    expect(isAdmin([])).toBe(false);
    expect(isAdmin(null)).toBe(false);
  });
});

describe('isOwner', () => {
  it('matches the author id in either shape', () => {
    expect(isOwner({ id: 7, roles: [] }, post)).toBe(true);
    expect(isOwner({ id: 7, roles: [] }, row)).toBe(true);
    expect(isOwner({ id: 8, roles: [] }, post)).toBe(false);
  });
  it('owns nothing without an id, and nobody owns an orphan', () => {
    expect(isOwner({ roles: [] }, post)).toBe(false);
    expect(isOwner({ id: null, roles: null }, { author_id: null })).toBe(false);
    expect(isOwner({ id: 7, roles: [] }, orphan)).toBe(false);
  });
});

describe('can (posts): owner or admin', () => {
  it.each(['edit', 'delete'] as const)('%s', (action) => {
    expect(can({ id: 7, roles: [] }, action, post)).toBe(true);
    expect(can({ id: 1, roles: ['admin'] }, action, row)).toBe(true);
    expect(can({ roles: ['admin'] }, action, orphan)).toBe(true);
    expect(can({ id: 8, roles: ['paid-tier-2'] }, action, post)).toBe(false);
    expect(can({ roles: null }, action, post)).toBe(false);
  });
});

describe('canComment', () => {
  it('lets only the author edit', () => {
    expect(canComment({ id: 7, roles: [] }, 'edit', row)).toBe(true);
    expect(canComment({ id: 1, roles: ['admin'] }, 'edit', row)).toBe(false);
  });
  it('lets the author or an admin delete', () => {
    expect(canComment({ id: 7, roles: [] }, 'delete', row)).toBe(true);
    expect(canComment({ id: 1, roles: ['admin'] }, 'delete', row)).toBe(true);
    expect(canComment({ id: 8, roles: [] }, 'delete', row)).toBe(false);
  });
});
