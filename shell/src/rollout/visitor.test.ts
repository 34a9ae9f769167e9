import { cohortOf } from '@app/rollout';
import { describe, expect, it } from 'vitest';
import { anonymousId, rememberedUserId, rememberUserId, VISITOR_ID_KEY, visitorCohort } from './visitor';

describe('visitor identity', () => {
  it('keeps one random id per browser, so the cohort is sticky across loads', () => {
    const first = visitorCohort(null);
    const id = localStorage.getItem(VISITOR_ID_KEY);
    expect(id).toMatch(/^[\w-]{8,64}$/);
    expect(visitorCohort(null)).toBe(first);
    expect(anonymousId()).toBe(id);
  });

  it('uses the user id once known, the same on any device', () => {
    rememberUserId(42);
    expect(rememberedUserId()).toBe('42');
    expect(visitorCohort('42')).toBe(cohortOf('user:42'));
    rememberUserId(null);
    expect(rememberedUserId()).toBeNull();
  });

  it('replaces a tampered stored id', () => {
    localStorage.setItem(VISITOR_ID_KEY, '<script>');
    expect(anonymousId()).not.toBe('<script>');
  });
});
