import {
  clearDraft,
  DRAFT_STORAGE_KEY,
  loadDraft,
  newDraft,
  newIdempotencyKey,
  saveDraft,
} from './draft-store';
import { EMPTY_VALUES } from './survey-values';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('draft store', () => {
  it('starts a fresh draft on step 1 with its own idempotency key', () => {
    const a = loadDraft();
    const b = loadDraft();
    expect(a.step).toBe(0);
    expect(a.values).toEqual(EMPTY_VALUES);
    expect(a.idempotencyKey).toMatch(UUID);
    expect(b.idempotencyKey).not.toBe(a.idempotencyKey);
  });

  it('keeps a saved draft, key included, in sessionStorage', () => {
    const draft = {
      ...newDraft(),
      step: 2,
      values: { ...EMPTY_VALUES, industry: 'retail', growthGoals: ['funding'] },
    };
    saveDraft(draft);
    expect(sessionStorage.getItem(DRAFT_STORAGE_KEY)).not.toBeNull();
    expect(loadDraft()).toEqual(draft);
  });

  it('drops unknown options and broken fields from a stored draft', () => {
    sessionStorage.setItem(
      DRAFT_STORAGE_KEY,
      JSON.stringify({
        step: 9,
        idempotencyKey: 'key-12345678',
        values: { industry: 'mining', role: 'cfo', primaryChallenges: ['cash-flow', 'bogus', 3], email: 42 },
      }),
    );
    const draft = loadDraft();
    expect(draft.step).toBe(0);
    expect(draft.idempotencyKey).toBe('key-12345678');
    expect(draft.values).toEqual({ ...EMPTY_VALUES, role: 'cfo' });
  });

  it('filters unknown items out of a list', () => {
    sessionStorage.setItem(
      DRAFT_STORAGE_KEY,
      JSON.stringify({
        step: 1,
        idempotencyKey: 'key-12345678',
        values: { primaryChallenges: ['cash-flow', 'bogus'] },
      }),
    );
    expect(loadDraft().values.primaryChallenges).toEqual(['cash-flow']);
  });

  it('starts over when the stored draft is not readable', () => {
    sessionStorage.setItem(DRAFT_STORAGE_KEY, '{not json');
    expect(loadDraft().values).toEqual(EMPTY_VALUES);
    sessionStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ step: 1, values: {} }));
    expect(loadDraft().idempotencyKey).toMatch(UUID);
  });

  it('clears the draft', () => {
    saveDraft(newDraft());
    clearDraft();
    expect(sessionStorage.getItem(DRAFT_STORAGE_KEY)).toBeNull();
  });

  it('makes a v4 UUID without crypto.randomUUID (insecure contexts)', () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newIdempotencyKey()).toMatch(UUID);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});
