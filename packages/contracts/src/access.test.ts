import { describe, expect, it } from 'vitest';
import {
  canOpen,
  canPublishAs,
  exploreVisibilities,
  openableVisibilities,
  publishableVisibilities,
  publishRefusal,
  tierLabel,
} from './access';

const guest = null;
const basic: string[] = [];
const premium = ['paid-tier-1'];
const pro = ['paid-tier-2'];
const admin = ['admin'];

describe('SPEC §6 tiers', () => {
  it.each([
    [guest, 'Guest'],
    [basic, 'Basic Member'],
    [premium, 'Premium'],
    [pro, 'Premium Pro'],
    [admin, 'Administrator'],
    [['paid-tier-1', 'admin'], 'Administrator'],
  ])('labels %j as %s', (roles, label) => {
    expect(tierLabel(roles)).toBe(label);
  });
});

describe('SPEC §6 access table', () => {
  it('opens each visibility to the listed tiers only', () => {
    expect(openableVisibilities(guest)).toEqual(['public']);
    expect(openableVisibilities(basic)).toEqual(['public', 'members_only']);
    expect(openableVisibilities(premium)).toEqual(['public', 'members_only', 'paid-tier-1']);
    expect(openableVisibilities(pro)).toEqual(['public', 'members_only', 'paid-tier-1', 'paid-tier-2']);
    expect(openableVisibilities(admin)).toEqual([
      'public',
      'members_only',
      'paid-tier-1',
      'paid-tier-2',
      'private',
    ]);
    expect(canOpen('private', pro)).toBe(false);
  });
});

describe('SPEC §6 Explore request', () => {
  it('always asks for public and adds tiers as the spec words it', () => {
    expect(exploreVisibilities(guest)).toEqual(['public']);
    expect(exploreVisibilities(basic)).toEqual(['public']);
    expect(exploreVisibilities(premium)).toEqual(['public', 'members_only']);
    expect(exploreVisibilities(pro)).toEqual(['public', 'members_only', 'paid-tier-1']);
    expect(exploreVisibilities(admin)).toEqual([
      'public',
      'members_only',
      'paid-tier-1',
      'paid-tier-2',
      'private',
    ]);
  });
});

describe('what an author may publish (decision 0011)', () => {
  it('offers each role the audiences it belongs to, Admin Only to administrators alone', () => {
    expect(publishableVisibilities(guest)).toEqual([]);
    expect(publishableVisibilities(basic)).toEqual(['public', 'members_only']);
    expect(publishableVisibilities(premium)).toEqual(['public', 'members_only', 'paid-tier-1']);
    expect(publishableVisibilities(pro)).toEqual(['public', 'members_only', 'paid-tier-1', 'paid-tier-2']);
    expect(publishableVisibilities(admin)).toContain('private');
    expect(canPublishAs('paid-tier-1', basic)).toBe(false);
    expect(canPublishAs('private', pro)).toBe(false);
    expect(canPublishAs('members_only', basic)).toBe(true);
  });

  it('explains a refusal with the choices that remain', () => {
    expect(publishRefusal('paid-tier-1', basic)).toBe(
      'Basic Member accounts cannot publish Premium research. Choose Public or Members.',
    );
    expect(publishRefusal('private', premium)).toBe(
      'Premium accounts cannot publish Admin Only research. Choose Public, Members or Premium.',
    );
  });
});
